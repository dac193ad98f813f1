// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What the data layer needs to know about one model input. The caller fills
// it from the model (tensor name, signature name, type, shape_signature), so
// the data layer does not depend on the graph.
#ifndef QFORGE_FORMATS_DATA_INPUT_DESC_H_
#define QFORGE_FORMATS_DATA_INPUT_DESC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/host_tensor.h"
#include "ir/types.h"

namespace qforge::formats {

struct InputDesc {
  std::string name;            // tensor name
  std::string signature_name;  // name in the signature def; may be empty
  ir::DataType type = ir::DataType::kFloat32;
  std::vector<int32_t> shape;  // -1 = dynamic
};

// "'image' float32[1,224,224,3]", as error messages name an input.
inline std::string DescribeInput(const InputDesc& input) {
  return absl::StrCat("'", input.name, "' ", ir::DataTypeName(input.type),
                      ir::ShapeString(input.shape));
}

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_INPUT_DESC_H_
