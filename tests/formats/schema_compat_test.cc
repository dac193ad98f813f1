// Copyright 2026 The qforge Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

// Checks that qforge's own .tflite schema (formats/schema/tflite.fbs) is wire
// compatible with the upstream TensorFlow Lite schema.
//
// Both .fbs files are parsed with flatbuffers::Parser at test time and
// serialized to binary schemas (reflection::Schema). Every table, struct,
// enum and union of the reference must exist in ours with identical field
// ids, types, defaults, enum values and union member order, and ours must not
// define anything the reference does not.
//
// Compile definitions:
//   QFORGE_REFERENCE_SCHEMA  path of the upstream schema (test is skipped if
//                            the file is absent).
//   QFORGE_SCHEMA_DIR        directory holding our tflite.fbs (and includes).

#include <flatbuffers/flatbuffers.h>
#include <flatbuffers/idl.h>
#include <flatbuffers/reflection.h>
#include <flatbuffers/util.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#ifndef QFORGE_REFERENCE_SCHEMA
#error "QFORGE_REFERENCE_SCHEMA must be defined (path of the reference .fbs)"
#endif
#ifndef QFORGE_SCHEMA_DIR
#error "QFORGE_SCHEMA_DIR must be defined (directory of qforge's tflite.fbs)"
#endif

namespace {

constexpr char kReferencePath[] = QFORGE_REFERENCE_SCHEMA;
constexpr char kSchemaDir[] = QFORGE_SCHEMA_DIR;
constexpr char kSchemaFile[] = "tflite.fbs";
constexpr char kDeprecatedAttr[] = "(deprecated)";

// A parsed schema serialized to a binary schema, plus notes about what had to
// be removed from the source to make flatc 2.0.8 accept it.
struct BinarySchema {
  std::string bfbs;
  const reflection::Schema* schema = nullptr;
  std::vector<std::string> dropped_deprecated;  // "line N: <text>"
};

// Extracts the 1-based line number from a flatbuffers::Parser error message
// ("<file>:<line>: <col>: error: ..."). Returns -1 if none is found.
int ErrorLine(const std::string& error) {
  const size_t pos = error.find(": error:");
  if (pos == std::string::npos) return -1;
  // Walk back over "<line>: <col>".
  size_t colon = error.rfind(':', pos - 1);  // Colon after <line>.
  if (colon == std::string::npos || colon == 0) return -1;
  size_t start = colon;
  while (start > 0 && error[start - 1] >= '0' && error[start - 1] <= '9') {
    --start;
  }
  if (start == colon) return -1;
  return std::atoi(error.substr(start, colon - start).c_str());
}

// Returns the [begin, end) range of 1-based line `line` in `text`.
bool LineRange(const std::string& text, int line, size_t* begin, size_t* end) {
  size_t b = 0;
  for (int i = 1; i < line; ++i) {
    b = text.find('\n', b);
    if (b == std::string::npos) return false;
    ++b;
  }
  size_t e = text.find('\n', b);
  *begin = b;
  *end = e == std::string::npos ? text.size() : e;
  return true;
}

// Parses `source` and serializes it to a binary schema. If
// `strip_refused_deprecated` is set, a `(deprecated)` attribute on a line that
// the parser rejects is removed and parsing is retried (flatc 2.0.8 refuses
// it on enum values and union members, where upstream uses it; there it does
// not affect the wire format).
::testing::AssertionResult ParseToBinarySchema(std::string source,
                                               const std::string& filename,
                                               const std::string& include_dir,
                                               bool strip_refused_deprecated,
                                               BinarySchema* out) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    flatbuffers::IDLOptions opts;
    // Keep builtin attributes (force_align, deprecated, ...) in the binary
    // schema so that they are compared too.
    opts.binary_schema_builtins = true;
    flatbuffers::Parser parser(opts);
    const char* include_paths[] = {include_dir.c_str(), nullptr};
    if (parser.Parse(source.c_str(), include_paths, filename.c_str())) {
      parser.Serialize();
      out->bfbs.assign(
          reinterpret_cast<const char*>(parser.builder_.GetBufferPointer()),
          parser.builder_.GetSize());
      flatbuffers::Verifier verifier(
          reinterpret_cast<const uint8_t*>(out->bfbs.data()), out->bfbs.size());
      if (!reflection::VerifySchemaBuffer(verifier)) {
        return ::testing::AssertionFailure()
               << filename << ": serialized binary schema does not verify";
      }
      out->schema = reflection::GetSchema(out->bfbs.data());
      return ::testing::AssertionSuccess();
    }
    const int line = ErrorLine(parser.error_);
    size_t begin = 0, end = 0;
    if (!strip_refused_deprecated || line < 1 ||
        !LineRange(source, line, &begin, &end)) {
      return ::testing::AssertionFailure()
             << "cannot parse " << filename << ": " << parser.error_;
    }
    const size_t attr = source.substr(begin, end - begin).find(kDeprecatedAttr);
    if (attr == std::string::npos) {
      return ::testing::AssertionFailure()
             << "cannot parse " << filename << ": " << parser.error_;
    }
    out->dropped_deprecated.push_back("line " + std::to_string(line) + ": " +
                                      source.substr(begin, end - begin));
    source.erase(begin + attr, sizeof(kDeprecatedAttr) - 1);
  }
  return ::testing::AssertionFailure()
         << "cannot parse " << filename << ": too many refused attributes";
}

const char* BaseTypeName(reflection::BaseType t) {
  return reflection::EnumNameBaseType(t);
}

class SchemaCompatTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    setup_error_ = new std::string();
    reference_ = new BinarySchema();
    ours_ = new BinarySchema();

    std::string ref_text;
    if (!flatbuffers::FileExists(kReferencePath) ||
        !flatbuffers::LoadFile(kReferencePath, false, &ref_text)) {
      reference_missing_ = true;
      return;
    }
    auto ref_ok = ParseToBinarySchema(
        ref_text, kReferencePath, flatbuffers::StripFileName(kReferencePath),
        /*strip_refused_deprecated=*/true, reference_);
    if (!ref_ok) {
      *setup_error_ = ref_ok.message();
      return;
    }

    const std::string ours_path =
        flatbuffers::ConCatPathFileName(kSchemaDir, kSchemaFile);
    std::string ours_text;
    if (!flatbuffers::LoadFile(ours_path.c_str(), false, &ours_text)) {
      *setup_error_ = "cannot read qforge schema " + ours_path;
      return;
    }
    // Our schema must be accepted as-is by the flatc we ship with.
    auto ours_ok =
        ParseToBinarySchema(ours_text, ours_path, kSchemaDir,
                            /*strip_refused_deprecated=*/false, ours_);
    if (!ours_ok) *setup_error_ = ours_ok.message();
  }

  static void TearDownTestSuite() {
    delete setup_error_;
    delete reference_;
    delete ours_;
    setup_error_ = nullptr;
    reference_ = nullptr;
    ours_ = nullptr;
  }

  void SetUp() override {
    if (reference_missing_) {
      GTEST_SKIP() << "../shared/reference absent: reference schema "
                   << kReferencePath
                   << " not found, skipping the wire-compatibility check";
    }
    ASSERT_TRUE(setup_error_->empty()) << *setup_error_;
    ASSERT_NE(reference_->schema, nullptr);
    ASSERT_NE(ours_->schema, nullptr);
  }

  static const reflection::Schema& Ref() { return *reference_->schema; }
  static const reflection::Schema& Ours() { return *ours_->schema; }

  // Name of the object/enum a type's `index` refers to, or "" if none.
  static std::string IndexTarget(const reflection::Schema& schema,
                                 const reflection::Type& type) {
    if (type.index() < 0) return "";
    const bool is_object = type.base_type() == reflection::Obj ||
                           ((type.base_type() == reflection::Vector ||
                             type.base_type() == reflection::Array) &&
                            type.element() == reflection::Obj);
    if (is_object) {
      if (static_cast<uint32_t>(type.index()) >= schema.objects()->size()) {
        return "<bad object index>";
      }
      return "object " + schema.objects()->Get(type.index())->name()->str();
    }
    if (static_cast<uint32_t>(type.index()) >= schema.enums()->size()) {
      return "<bad enum index>";
    }
    return "enum " + schema.enums()->Get(type.index())->name()->str();
  }

  static std::string DescribeType(const reflection::Schema& schema,
                                  const reflection::Type* type) {
    if (type == nullptr) return "<none>";
    std::ostringstream s;
    s << BaseTypeName(type->base_type());
    if (type->base_type() == reflection::Vector ||
        type->base_type() == reflection::Array) {
      s << " of " << BaseTypeName(type->element());
    }
    if (type->base_type() == reflection::Array) {
      s << "[" << type->fixed_length() << "]";
    }
    const std::string target = IndexTarget(schema, *type);
    if (!target.empty()) s << " (" << target << ")";
    return s.str();
  }

  static void ExpectSameType(const std::string& what,
                             const reflection::Type* ref,
                             const reflection::Type* ours) {
    const std::string ref_desc = DescribeType(Ref(), ref);
    const std::string ours_desc = DescribeType(Ours(), ours);
    EXPECT_EQ(ref_desc, ours_desc) << what << ": type differs";
    if (ref == nullptr || ours == nullptr) return;
    EXPECT_EQ(ref->base_size(), ours->base_size())
        << what << ": base_size differs";
    EXPECT_EQ(ref->element_size(), ours->element_size())
        << what << ": element_size differs";
  }

  // User attributes (force_align, deprecated, ...) as a sorted map. `id` is
  // skipped: explicit ids are compared through Field::id().
  template <typename T>
  static std::map<std::string, std::string> Attributes(const T& def) {
    std::map<std::string, std::string> attrs;
    if (def.attributes() == nullptr) return attrs;
    for (const reflection::KeyValue* kv : *def.attributes()) {
      const std::string key = kv->key()->str();
      if (key == "id") continue;
      attrs[key] = kv->value() != nullptr ? kv->value()->str() : "";
    }
    return attrs;
  }

  static std::string Join(const std::map<std::string, std::string>& attrs) {
    std::string s = "{";
    for (const auto& kv : attrs) {
      if (s.size() > 1) s += ", ";
      s += kv.first + (kv.second.empty() ? "" : ": " + kv.second);
    }
    return s + "}";
  }

  static void ExpectSameField(const std::string& object,
                              const reflection::Field& ref,
                              const reflection::Field& ours, bool is_struct) {
    const std::string what = object + "." + ref.name()->str();
    EXPECT_EQ(ref.id(), ours.id())
        << what << ": field id (position) differs, field order changed?";
    ExpectSameType(what, ref.type(), ours.type());
    EXPECT_EQ(ref.offset(), ours.offset())
        << what
        << (is_struct ? ": struct byte offset differs"
                      : ": vtable offset differs");
    EXPECT_EQ(ref.default_integer(), ours.default_integer())
        << what << ": integer default differs";
    const double dr = ref.default_real(), dou = ours.default_real();
    EXPECT_TRUE((std::isnan(dr) && std::isnan(dou)) || dr == dou)
        << what << ": real default differs: reference " << dr << ", ours "
        << dou;
    EXPECT_EQ(ref.deprecated(), ours.deprecated())
        << what << ": deprecated flag differs";
    EXPECT_EQ(ref.required(), ours.required())
        << what << ": required flag differs";
    EXPECT_EQ(ref.key(), ours.key()) << what << ": key flag differs";
    EXPECT_EQ(ref.optional(), ours.optional())
        << what << ": optional (= null) flag differs";
    EXPECT_EQ(ref.padding(), ours.padding()) << what << ": padding differs";
    EXPECT_EQ(Join(Attributes(ref)), Join(Attributes(ours)))
        << what << ": attributes differ (e.g. force_align)";
  }

  static void ExpectSameObject(const reflection::Object& ref,
                               const reflection::Object& ours) {
    const std::string name = ref.name()->str();
    const char* kind = ref.is_struct() ? "struct " : "table ";
    EXPECT_EQ(ref.is_struct(), ours.is_struct())
        << name << ": one schema declares it a struct, the other a table";
    if (ref.is_struct()) {
      EXPECT_EQ(ref.minalign(), ours.minalign())
          << "struct " << name << ": minalign differs";
      EXPECT_EQ(ref.bytesize(), ours.bytesize())
          << "struct " << name << ": bytesize differs";
    }
    EXPECT_EQ(Join(Attributes(ref)), Join(Attributes(ours)))
        << kind << name << ": attributes differ";

    for (const reflection::Field* ref_field : *ref.fields()) {
      const reflection::Field* our_field =
          ours.fields()->LookupByKey(ref_field->name()->c_str());
      EXPECT_NE(our_field, nullptr)
          << kind << name << ": field " << ref_field->name()->str() << " (id "
          << ref_field->id() << ") missing in qforge schema";
      if (our_field == nullptr) continue;
      ExpectSameField(kind + name, *ref_field, *our_field, ref.is_struct());
    }
    for (const reflection::Field* our_field : *ours.fields()) {
      EXPECT_NE(ref.fields()->LookupByKey(our_field->name()->c_str()), nullptr)
          << kind << name << ": field " << our_field->name()->str() << " (id "
          << our_field->id() << ") not in reference schema";
    }
    EXPECT_EQ(ref.fields()->size(), ours.fields()->size())
        << kind << name << ": field count differs";
  }

  static void ExpectSameEnum(const reflection::Enum& ref,
                             const reflection::Enum& ours) {
    const std::string name = ref.name()->str();
    const std::string kind = ref.is_union() ? "union " : "enum ";
    EXPECT_EQ(ref.is_union(), ours.is_union())
        << name << ": one schema declares it a union, the other an enum";
    ExpectSameType(kind + name + " underlying type", ref.underlying_type(),
                   ours.underlying_type());
    EXPECT_EQ(Join(Attributes(ref)), Join(Attributes(ours)))
        << kind << name << ": attributes differ";
    EXPECT_EQ(ref.values()->size(), ours.values()->size())
        << kind << name << ": number of values differs";

    // Match values by name. For unions the value is the wire type code, i.e.
    // the member's position, so a reordered union shows up as a value change.
    std::map<std::string, const reflection::EnumVal*> our_values;
    for (const reflection::EnumVal* ov : *ours.values()) {
      our_values[ov->name()->str()] = ov;
    }
    std::map<std::string, bool> ref_names;
    for (const reflection::EnumVal* rv : *ref.values()) {
      const std::string vname = rv->name()->str();
      ref_names[vname] = true;
      const std::string what =
          kind + name + " " + (ref.is_union() ? "member " : "value ") + vname;
      auto it = our_values.find(vname);
      if (it == our_values.end()) {
        ADD_FAILURE() << what << " = " << rv->value()
                      << " missing in qforge schema";
        continue;
      }
      const reflection::EnumVal* ov = it->second;
      EXPECT_EQ(rv->value(), ov->value())
          << what
          << (ref.is_union() ? ": type code (position in union) differs"
                             : ": value differs");
      if (ref.is_union()) {
        ExpectSameType(what + " member type", rv->union_type(),
                       ov->union_type());
      }
    }
    for (const reflection::EnumVal* ov : *ours.values()) {
      if (ref_names.count(ov->name()->str()) == 0) {
        ADD_FAILURE() << kind << name << ": value " << ov->name()->str()
                      << " = " << ov->value() << " not in reference schema";
      }
    }
  }

  static bool reference_missing_;
  static std::string* setup_error_;
  static BinarySchema* reference_;
  static BinarySchema* ours_;
};

bool SchemaCompatTest::reference_missing_ = false;
std::string* SchemaCompatTest::setup_error_ = nullptr;
BinarySchema* SchemaCompatTest::reference_ = nullptr;
BinarySchema* SchemaCompatTest::ours_ = nullptr;

TEST_F(SchemaCompatTest, FileIdentificationAndRoot) {
  auto str = [](const flatbuffers::String* s) {
    return s == nullptr ? std::string("<none>") : s->str();
  };
  EXPECT_EQ(str(Ref().file_ident()), str(Ours().file_ident()))
      << "file_identifier differs";
  EXPECT_EQ(str(Ref().file_ext()), str(Ours().file_ext()))
      << "file_extension differs";
  EXPECT_EQ(str(Ours().file_ident()), "TFL3");
  ASSERT_NE(Ref().root_table(), nullptr);
  ASSERT_NE(Ours().root_table(), nullptr) << "qforge schema has no root_type";
  EXPECT_EQ(Ref().root_table()->name()->str(),
            Ours().root_table()->name()->str())
      << "root_type differs";
  // Generated code must land in namespace tflite.
  EXPECT_EQ(Ours().root_table()->name()->str(), "tflite.Model");
}

TEST_F(SchemaCompatTest, TablesAndStructsMatch) {
  int tables = 0, structs = 0;
  for (const reflection::Object* ref_obj : *Ref().objects()) {
    (ref_obj->is_struct() ? structs : tables)++;
    const reflection::Object* our_obj =
        Ours().objects()->LookupByKey(ref_obj->name()->c_str());
    EXPECT_NE(our_obj, nullptr)
        << (ref_obj->is_struct() ? "struct " : "table ")
        << ref_obj->name()->str() << " missing in qforge schema";
    if (our_obj == nullptr) continue;
    ExpectSameObject(*ref_obj, *our_obj);
  }
  for (const reflection::Object* our_obj : *Ours().objects()) {
    EXPECT_NE(Ref().objects()->LookupByKey(our_obj->name()->c_str()), nullptr)
        << (our_obj->is_struct() ? "struct " : "table ")
        << our_obj->name()->str() << " not in reference schema";
  }
  EXPECT_GT(tables, 0);
  std::printf("[ compared  ] %d tables, %d structs\n", tables, structs);
}

TEST_F(SchemaCompatTest, EnumsAndUnionsMatch) {
  int enums = 0, unions = 0;
  for (const reflection::Enum* ref_enum : *Ref().enums()) {
    (ref_enum->is_union() ? unions : enums)++;
    const reflection::Enum* our_enum =
        Ours().enums()->LookupByKey(ref_enum->name()->c_str());
    EXPECT_NE(our_enum, nullptr)
        << (ref_enum->is_union() ? "union " : "enum ")
        << ref_enum->name()->str() << " missing in qforge schema";
    if (our_enum == nullptr) continue;
    ExpectSameEnum(*ref_enum, *our_enum);
  }
  for (const reflection::Enum* our_enum : *Ours().enums()) {
    EXPECT_NE(Ref().enums()->LookupByKey(our_enum->name()->c_str()), nullptr)
        << (our_enum->is_union() ? "union " : "enum ")
        << our_enum->name()->str() << " not in reference schema";
  }
  EXPECT_GT(enums, 0);
  EXPECT_GT(unions, 0);
  std::printf("[ compared  ] %d enums, %d unions\n", enums, unions);
}

TEST_F(SchemaCompatTest, ReportsDroppedDeprecatedMarkers) {
  // Informational: which upstream `(deprecated)` markers flatc refused. They
  // sit on enum values or union members and do not affect the wire format;
  // our schema omits them too.
  for (const std::string& line : reference_->dropped_deprecated) {
    std::printf("[ note      ] reference %s (deprecated dropped for flatc)\n",
                line.c_str());
  }
  SUCCEED();
}

}  // namespace
