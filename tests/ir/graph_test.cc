// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// ir::Graph: producers and consumers of each tensor, on valid subgraphs and
// on the malformed ones the validator reads it on.
#include "ir/graph.h"

#include <vector>

#include "gtest/gtest.h"

namespace qforge::ir {
namespace {

Operator GraphTestOp(std::vector<int32_t> inputs,
                     std::vector<int32_t> outputs) {
  Operator op;
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  return op;
}

std::vector<int> Consumers(const Graph& g, int32_t t) {
  const absl::Span<const int> c = g.consumers(t);
  return std::vector<int>(c.begin(), c.end());
}

// 0 -> op0 -> 1 -> op1 (reads 1 twice and 0) -> 2, 3; op2 reads 1 and 3.
Subgraph Diamond() {
  Subgraph sg;
  sg.tensors.resize(5);
  sg.inputs = {0};
  sg.outputs = {2};
  sg.operators.push_back(GraphTestOp({0}, {1}));
  sg.operators.push_back(GraphTestOp({1, 1, 0}, {2, 3}));
  sg.operators.push_back(GraphTestOp({1, -1, 3}, {4}));
  return sg;
}

TEST(GraphTest, ProducersAndTheirOutputs) {
  const Graph g(Diamond());
  EXPECT_EQ(g.producer(0), -1);  // a subgraph input
  EXPECT_EQ(g.producer(1), 0);
  EXPECT_EQ(g.producer(2), 1);
  EXPECT_EQ(g.producer(3), 1);
  EXPECT_EQ(g.producer(4), 2);
  EXPECT_EQ(g.producer_output(1), 0);
  EXPECT_EQ(g.producer_output(3), 1);
  EXPECT_EQ(g.producer_output(0), -1);
}

TEST(GraphTest, ConsumersInOpOrderEachOnce) {
  const Graph g(Diamond());
  EXPECT_EQ(Consumers(g, 0), (std::vector<int>{0, 1}));
  EXPECT_EQ(Consumers(g, 1), (std::vector<int>{1, 2}));  // op 1 once
  EXPECT_EQ(Consumers(g, 3), (std::vector<int>{2}));
  EXPECT_TRUE(Consumers(g, 2).empty());  // a subgraph output only
  EXPECT_TRUE(Consumers(g, 4).empty());
}

TEST(GraphTest, IndicesOutOfRangeAreLeftOut) {
  Subgraph sg;
  sg.tensors.resize(2);
  sg.operators.push_back(GraphTestOp({0, 7, -3}, {1, 9, -1}));
  const Graph g(sg);
  EXPECT_EQ(g.producer(1), 0);
  EXPECT_EQ(g.producer(9), -1);
  EXPECT_EQ(g.producer(-1), -1);
  EXPECT_EQ(g.producer_output(9), -1);
  EXPECT_TRUE(Consumers(g, 7).empty());
  EXPECT_TRUE(Consumers(g, -3).empty());
  EXPECT_EQ(Consumers(g, 0), (std::vector<int>{0}));
}

// Invalid subgraphs: the first writer counts, so the validator can name it.
TEST(GraphTest, TheFirstOfSeveralWritersIsTheProducer) {
  Subgraph sg;
  sg.tensors.resize(3);
  sg.operators.push_back(GraphTestOp({0}, {1}));
  sg.operators.push_back(GraphTestOp({0}, {2, 1}));
  sg.operators.push_back(GraphTestOp({0}, {2, 2}));
  const Graph g(sg);
  EXPECT_EQ(g.producer(1), 0);
  EXPECT_EQ(g.producer_output(1), 0);
  EXPECT_EQ(g.producer(2), 1);
  EXPECT_EQ(g.producer_output(2), 0);
}

TEST(GraphTest, EmptySubgraph) {
  const Graph g{Subgraph{}};
  EXPECT_EQ(g.producer(0), -1);
  EXPECT_TRUE(Consumers(g, 0).empty());
}

}  // namespace
}  // namespace qforge::ir
