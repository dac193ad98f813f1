// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Malformed models: each must give a one-line error naming the file and the
// rule broken, and exit code 2 from the CLI; none may crash (this test also
// runs under ASan/UBSan). Broken files are made from bundled models, either
// by cutting/corrupting bytes or by editing the unpacked object tree with
// flatc's object API (which, unlike qforge's writer, checks nothing).
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "flatbuffers/flatbuffers.h"
#include "formats/schema/tflite_generated.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

struct Case {
  std::string name;
  std::vector<uint8_t> bytes;
  std::string expect;  // a phrase the message must contain
};

std::vector<uint8_t> Load(const std::string& model) {
  absl::StatusOr<std::vector<uint8_t>> bytes =
      ReadFileBytes(testing::TestDataDir() + "/models/" + model);
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? *bytes : std::vector<uint8_t>{};
}

std::vector<uint8_t> Edit(const std::string& model,
                          const std::function<void(tflite::ModelT&)>& edit) {
  const std::vector<uint8_t> bytes = Load(model);
  std::unique_ptr<tflite::ModelT> m(tflite::GetModel(bytes.data())->UnPack());
  edit(*m);
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(tflite::Model::Pack(fbb, m.get()), tflite::ModelIdentifier());
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

// Index of the first op of subgraph 0 with builtin code `code`.
tflite::OperatorT& FirstOp(tflite::ModelT& m, tflite::BuiltinOperator code) {
  for (auto& op : m.subgraphs[0]->operators) {
    const auto& oc = *m.operator_codes[op->opcode_index];
    if (std::max<int32_t>(oc.builtin_code, oc.deprecated_builtin_code) ==
        code) {
      return *op;
    }
  }
  ADD_FAILURE() << "no op " << tflite::EnumNameBuiltinOperator(code);
  return *m.subgraphs[0]->operators[0];
}

// The first tensor of subgraph 0 with non-empty constant data.
tflite::TensorT& FirstConstant(tflite::ModelT& m) {
  for (auto& t : m.subgraphs[0]->tensors) {
    if (t->buffer != 0 && !m.buffers[t->buffer]->data.empty()) return *t;
  }
  ADD_FAILURE() << "no constant tensor";
  return *m.subgraphs[0]->tensors[0];
}

std::vector<Case> MakeCases() {
  const std::string kModel = "conv_fc_mnist.tflite";
  const std::vector<uint8_t> good = Load(kModel);
  std::vector<Case> cases;
  auto truncate = [&](size_t n) {
    return std::vector<uint8_t>(good.begin(), good.begin() + n);
  };
  cases.push_back({"empty", {}, "too short"});
  cases.push_back({"truncated_6", truncate(6), "too short"});
  cases.push_back({"truncated_16", truncate(16), "verification failed"});
  cases.push_back({"truncated_256", truncate(256), "verification failed"});
  cases.push_back(
      {"truncated_half", truncate(good.size() / 2), "verification"});
  cases.push_back(
      {"truncated_last_byte", truncate(good.size() - 1), "verification"});
  {
    std::vector<uint8_t> b = good;
    std::memcpy(b.data() + 4, "XXXX", 4);
    cases.push_back({"bad_identifier", b, "TFL3"});
  }
  {
    std::vector<uint8_t> b = good;
    const uint32_t root = static_cast<uint32_t>(b.size()) + 1000;
    std::memcpy(b.data(), &root, 4);
    cases.push_back({"root_offset_past_end", b, "verification failed"});
  }
  {
    // The root table's vtable offset (soffset at the table) made huge.
    std::vector<uint8_t> b = good;
    uint32_t root;
    std::memcpy(&root, b.data(), 4);
    const int32_t bad = -0x7ffffff0;
    std::memcpy(b.data() + root, &bad, 4);
    cases.push_back({"vtable_offset_corrupt", b, "verification failed"});
  }
  {
    // A vtable claiming a huge size.
    std::vector<uint8_t> b = good;
    uint32_t root;
    int32_t vt;
    std::memcpy(&root, b.data(), 4);
    std::memcpy(&vt, b.data() + root, 4);
    const uint16_t huge = 0xfff0;
    std::memcpy(b.data() + root - vt, &huge, 2);
    cases.push_back({"vtable_size_corrupt", b, "verification failed"});
  }
  cases.push_back({"op_input_out_of_range",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          m.subgraphs[0]->operators[0]->inputs[0] = 100000;
                        }),
                   "out of range"});
  cases.push_back({"op_output_negative",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          m.subgraphs[0]->operators[0]->outputs[0] = -1;
                        }),
                   "out of range"});
  cases.push_back(
      {"subgraph_input_out_of_range",
       Edit(kModel,
            [](tflite::ModelT& m) { m.subgraphs[0]->inputs[0] = 5000; }),
       "out of range"});
  cases.push_back({"buffer_index_out_of_range",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          m.subgraphs[0]->tensors[0]->buffer = 9999;
                        }),
                   "buffer index 9999 is out of range"});
  cases.push_back({"opcode_index_out_of_range",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          m.subgraphs[0]->operators[0]->opcode_index = 77;
                        }),
                   "opcode index 77 is out of range"});
  cases.push_back({"negative_dim",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          m.subgraphs[0]->tensors[0]->shape = {1, -5, 3};
                        }),
                   "must be >= -1"});
  cases.push_back({"huge_shape_overflow",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          m.subgraphs[0]->tensors[0]->shape = {
                              2147483647, 2147483647, 2147483647, 2147483647};
                        }),
                   "more bytes than int64"});
  cases.push_back({"constant_size_mismatch",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          tflite::TensorT& t = FirstConstant(m);
                          m.buffers[t.buffer]->data.resize(
                              m.buffers[t.buffer]->data.size() - 4);
                        }),
                   "needs"});
  cases.push_back(
      {"constant_shape_lies",
       Edit(kModel,
            [](tflite::ModelT& m) { FirstConstant(m).shape.push_back(7); }),
       "needs"});
  cases.push_back({"cycle",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          // op 0 reads what the last op writes.
                          auto& ops = m.subgraphs[0]->operators;
                          ops[0]->inputs[0] = ops.back()->outputs[0];
                        }),
                   "cycle"});
  cases.push_back({"self_loop",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          auto& op = m.subgraphs[0]->operators[1];
                          op->inputs[0] = op->outputs[0];
                        }),
                   "cycle"});
  cases.push_back({"two_producers",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          auto& ops = m.subgraphs[0]->operators;
                          ops[1]->outputs[0] = ops[0]->outputs[0];
                        }),
                   "already written"});
  cases.push_back(
      {"conv_arity",
       Edit(kModel,
            [](tflite::ModelT& m) {
              FirstOp(m, tflite::BuiltinOperator_CONV_2D).inputs.resize(1);
            }),
       "the op takes 2 to 3"});
  cases.push_back({"unknown_tensor_type",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          m.subgraphs[0]->tensors[0]->type =
                              static_cast<tflite::TensorType>(99);
                        }),
                   "unknown tensor type 99"});
  cases.push_back({"options_type_mismatch",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          tflite::PadOptionsT pad;
                          FirstOp(m, tflite::BuiltinOperator_CONV_2D)
                              .builtin_options.Set(std::move(pad));
                        }),
                   "builtin_options is PadOptions"});
  cases.push_back({"metadata_buffer_out_of_range",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          auto md = std::make_unique<tflite::MetadataT>();
                          md->name = "x";
                          md->buffer = 4242;
                          m.metadata.push_back(std::move(md));
                        }),
                   "'x': buffer index 4242 is out of range"});
  cases.push_back({"signature_tensor_out_of_range",
                   Edit("two_signatures.tflite",
                        [](tflite::ModelT& m) {
                          m.signature_defs[0]->inputs[0]->tensor_index = 31337;
                        }),
                   "tensor index 31337 is out of range"});
  cases.push_back({"while_body_out_of_range",
                   Edit("multi_subgraphs_while.tflite",
                        [](tflite::ModelT& m) {
                          for (auto& op : m.subgraphs[0]->operators) {
                            if (auto* w =
                                    op->builtin_options.AsWhileOptions()) {
                              w->body_subgraph_index = 12;
                            }
                          }
                        }),
                   "body subgraph index 12 is out of range"});
  cases.push_back({"external_buffer_past_end",
                   Edit(kModel,
                        [](tflite::ModelT& m) {
                          tflite::TensorT& t = FirstConstant(m);
                          auto& buf = *m.buffers[t.buffer];
                          buf.size = buf.data.size();
                          buf.data.clear();
                          buf.offset = 1u << 30;
                        }),
                   "past the end of the file"});
  cases.push_back({"large_custom_options_past_end",
                   Edit("tflite_custom.tflite",
                        [](tflite::ModelT& m) {
                          auto& op = *m.subgraphs[0]->operators[0];
                          op.large_custom_options_offset = 1u << 20;
                          op.large_custom_options_size = 64;
                        }),
                   "past the end of the file"});
  {
    // Random bytes behind a valid identifier.
    std::vector<uint8_t> b(4096);
    uint32_t x = 12345;
    for (auto& v : b) {
      x = x * 1664525u + 1013904223u;
      v = static_cast<uint8_t>(x >> 24);
    }
    std::memcpy(b.data() + 4, "TFL3", 4);
    cases.push_back({"garbage", b, "verification failed"});
  }
  return cases;
}

TEST(MalformedTest, ReaderRejectsWithOneLineError) {
  const std::vector<Case> cases = MakeCases();
  ASSERT_GE(cases.size(), 20u);
  for (const Case& c : cases) {
    absl::StatusOr<ir::Model> model = formats::ParseTflite(c.bytes, c.name);
    ASSERT_FALSE(model.ok()) << c.name << " was accepted";
    const std::string msg(model.status().message());
    EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument)
        << c.name << ": " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << c.name << ": " << msg;
    EXPECT_EQ(msg.rfind(c.name + ": ", 0), 0u)
        << c.name << ": message must start with the source: " << msg;
    EXPECT_NE(msg.find(c.expect), std::string::npos)
        << c.name << ": expected '" << c.expect << "' in: " << msg;
  }
  std::printf("malformed: %zu cases rejected\n", cases.size());
}

TEST(MalformedTest, CliExitsTwoWithOneLine) {
  const std::string dir = testing::MakeTempDir();
  for (const Case& c : MakeCases()) {
    const std::string path = dir + "/" + c.name + ".tflite";
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(c.bytes.data()),
               static_cast<std::streamsize>(c.bytes.size()));
    for (const char* command : {"inspect", "copy"}) {
      std::string line = testing::QforgeBinary() + " " + command + " " + path;
      if (std::string(command) == "copy") line += " -o " + dir + "/out.tflite";
      const testing::CommandResult r = testing::RunCommand(line);
      EXPECT_EQ(r.exit_code, 2) << c.name << " " << command << ": " << r.err;
      EXPECT_EQ(r.out, "") << c.name;
      // Exactly one line on stderr, naming the file.
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1)
          << c.name << ": " << r.err;
      EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    }
    // No partial output left behind.
    EXPECT_FALSE(std::ifstream(dir + "/out.tflite").good()) << c.name;
  }
}

}  // namespace
}  // namespace qforge
