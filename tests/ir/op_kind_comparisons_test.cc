// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What an op means lives in the op table (ir/ops.def): its flags and traits,
// or its own row's columns (RULES, VER, ...). A comparison with one of its
// kinds elsewhere (`kind == OpKind::kRelu6`, `case OpKind::kConv2D:` in a
// switch of its own) is invisible to -Wswitch when a row is added, so the
// library sources may hold only those op_kind_allowlist.txt lists, each with
// its reason. Not counted: the table's own expansions (`OpKind::k##kind`)
// and the two kinds without a row, kOtherBuiltin and kCustom (a custom op
// is named by its custom code, not by the table).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"

namespace qforge::testing {
namespace {

struct Comparison {
  std::string file;
  int line = 0;
  std::string kind;  // "Relu6" for OpKind::kRelu6
};

struct Allowed {
  std::string path;  // a file, or a folder ending in '/' (every file in it)
  std::string kind;
  int count = 0;
};

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// `text` with comments and the contents of string and character literals
// blanked (newlines kept, so that offsets keep their line).
std::string CodeOnly(const std::string& text) {
  std::string out = text;
  enum { kCode, kLine, kBlock, kString, kChar } state = kCode;
  for (size_t i = 0; i < out.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    switch (state) {
      case kCode:
        if (c == '/' && next == '/') {
          state = kLine;
          out[i] = ' ';
        } else if (c == '/' && next == '*') {
          state = kBlock;
          out[i] = ' ';
        } else if (c == '"' && i > 0 && text[i - 1] == 'R' &&
                   (i == 1 || !IsWordChar(text[i - 2]) || text[i - 2] == '8')) {
          // A raw string R"delim( ... )delim": blank up to its end.
          const size_t open = text.find('(', i);
          if (open == std::string::npos) break;
          const std::string close =
              ")" + text.substr(i + 1, open - i - 1) + "\"";
          const size_t end = text.find(close, open);
          const size_t last =
              end == std::string::npos ? text.size() : end + close.size();
          for (size_t j = i + 1; j + 1 < last; ++j) {
            if (text[j] != '\n') out[j] = ' ';
          }
          i = last - 1;
        } else if (c == '"') {
          state = kString;
        } else if (c == '\'' && !(i > 0 && IsWordChar(text[i - 1]))) {
          state = kChar;  // not a digit separator (1'000)
        }
        break;
      case kLine:
        if (c == '\n') {
          state = kCode;
        } else {
          out[i] = ' ';
        }
        break;
      case kBlock:
        if (c == '*' && next == '/') {
          out[i] = out[i + 1] = ' ';
          ++i;
          state = kCode;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      case kString:
      case kChar:
        if (c == '\\') {
          out[i] = ' ';
          if (i + 1 < out.size() && next != '\n') out[++i] = ' ';
        } else if ((state == kString && c == '"') ||
                   (state == kChar && c == '\'')) {
          state = kCode;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
    }
  }
  return out;
}

// Every comparison with a row's kind in `text` (the contents of `file`):
// `==` or `!=` on either side of `[ns::]OpKind::kX`, or `case` before it.
std::vector<Comparison> FindComparisons(const std::string& file,
                                        const std::string& text) {
  const std::string code = CodeOnly(text);
  const std::string needle = "OpKind::k";
  std::vector<Comparison> found;
  for (size_t at = code.find(needle); at != std::string::npos;
       at = code.find(needle, at + 1)) {
    if (at > 0 && IsWordChar(code[at - 1])) continue;  // e.g. MyOpKind::k
    size_t end = at + needle.size();
    while (end < code.size() && IsWordChar(code[end])) ++end;
    const std::string kind =
        code.substr(at + needle.size(), end - at - needle.size());
    // k##kind: an expansion of the table; the kinds without a row.
    if (kind.empty() || kind == "OtherBuiltin" || kind == "Custom") continue;
    size_t before = at;  // back over qualifiers (ir::, qforge::ir::)
    while (before > 0 &&
           (IsWordChar(code[before - 1]) || code[before - 1] == ':')) {
      --before;
    }
    while (before > 0 &&
           std::isspace(static_cast<unsigned char>(code[before - 1])) != 0) {
      --before;
    }
    size_t after = end;
    while (after < code.size() &&
           std::isspace(static_cast<unsigned char>(code[after])) != 0) {
      ++after;
    }
    auto op_at = [&](size_t i) {
      return i + 1 < code.size() && (code[i] == '=' || code[i] == '!') &&
             code[i + 1] == '=';
    };
    const bool compared_before = before >= 2 && op_at(before - 2);
    const bool compared_after = op_at(after);
    const bool case_label = before >= 4 &&
                            code.compare(before - 4, 4, "case") == 0 &&
                            (before == 4 || !IsWordChar(code[before - 5]));
    if (compared_before || compared_after || case_label) {
      const int line = static_cast<int>(
          std::count(code.begin(), code.begin() + at, '\n') + 1);
      found.push_back({file, line, kind});
    }
  }
  return found;
}

// Lines "<path> <kind> <count> <reason...>"; '#' starts a comment line.
std::vector<Allowed> ParseAllowList(const std::string& text,
                                    std::vector<std::string>* errors) {
  std::vector<Allowed> list;
  int n = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++n;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> words =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    Allowed a;
    if (words.size() < 4 || words[1].size() < 2 || words[1][0] != 'k' ||
        (a.count = std::atoi(words[2].c_str())) <= 0) {
      errors->push_back(absl::StrCat(
          "allow-list line ", n, ": want '<path> k<Kind> <count> <reason>'"));
      continue;
    }
    a.path = words[0];
    a.kind = words[1].substr(1);
    list.push_back(a);
  }
  return list;
}

bool Covers(const Allowed& a, const Comparison& c) {
  if (a.kind != c.kind) return false;
  if (!a.path.empty() && a.path.back() == '/') {
    return c.file.compare(0, a.path.size(), a.path) == 0;
  }
  return a.path == c.file;
}

// What is wrong: a comparison no entry covers, or an entry allowing more
// than the tree holds (lower it, so that the list only shrinks).
std::vector<std::string> CheckAllowList(const std::vector<Comparison>& found,
                                        const std::vector<Allowed>& allowed) {
  std::vector<std::string> problems;
  std::vector<int> used(allowed.size(), 0);
  for (const Comparison& c : found) {
    bool covered = false;
    for (size_t i = 0; i < allowed.size() && !covered; ++i) {
      if (Covers(allowed[i], c) && used[i] < allowed[i].count) {
        ++used[i];
        covered = true;
      }
    }
    if (!covered) {
      problems.push_back(absl::StrCat(
          c.file, ":", c.line, ": OpKind::k", c.kind,
          " compared outside the op table: give the op a flag, a trait or "
          "a column in ir/ops.def and read that instead"));
    }
  }
  for (size_t i = 0; i < allowed.size(); ++i) {
    if (used[i] < allowed[i].count) {
      problems.push_back(
          absl::StrCat("allow-list entry '", allowed[i].path, " k",
                       allowed[i].kind, " ", allowed[i].count, "' matches ",
                       used[i], " comparisons: lower its count or remove it"));
    }
  }
  return problems;
}

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The library sources: every .cc / .h / .inc of the tree but tests, bench
// tools, build trees and hidden folders.
std::vector<Comparison> ScanTree(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(root);
       it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory()) {
      if (it.depth() == 0 &&
          (name == "tests" || name == "bench" || name == "docs" ||
           name == "scripts" || name == "testdata" || name[0] == '.' ||
           name.rfind("build", 0) == 0)) {
        it.disable_recursion_pending();
      }
      continue;
    }
    const std::string ext = it->path().extension().string();
    if (ext == ".cc" || ext == ".h" || ext == ".inc") {
      files.push_back(fs::relative(it->path(), root).generic_string());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Comparison> found;
  for (const std::string& f : files) {
    for (Comparison& c : FindComparisons(f, ReadText(root / f))) {
      found.push_back(std::move(c));
    }
  }
  return found;
}

std::vector<std::string> Kinds(const std::vector<Comparison>& found) {
  std::vector<std::string> kinds;
  for (const Comparison& c : found) {
    kinds.push_back(absl::StrCat(c.line, ":", c.kind));
  }
  return kinds;
}

TEST(OpKindComparisonsTest, FindsComparisonsAndCaseLabels) {
  const std::string text =
      "if (op.kind == ir::OpKind::kRelu6) {}\n"  // 1
      "bool b = OpKind::kAdd != k;\n"            // 2
      "switch (k) {\n"                           // 3
      "  case qforge::ir::OpKind::kConv2D:\n"    // 4
      "    break;\n"                             // 5
      "}\n"                                      // 6
      "x = y.kind ==\n"                          // 7
      "    ir::OpKind::kSoftmax;\n";             // 8
  EXPECT_EQ(
      Kinds(FindComparisons("f.cc", text)),
      (std::vector<std::string>{"1:Relu6", "2:Add", "4:Conv2D", "8:Softmax"}));
}

TEST(OpKindComparisonsTest, SkipsExpansionsUsesAndTextThatIsNotCode) {
  const std::string text =
      "#define QF_OP(kind, ...) case ir::OpKind::k##kind: return 1;\n"
      "case ir::OpKind::kOtherBuiltin:\n"
      "if (op.kind == ir::OpKind::kCustom) {}\n"
      "ops.push_back(MakeOp(ir::OpKind::kQuantize, {t}, {q}));\n"
      "q.kind = ir::OpKind::kQuantize;\n"
      "OpKind kind = OpKind::kConv2D;\n"
      "// kind == OpKind::kRelu\n"
      "/* kind == OpKind::kRelu */\n"
      "const char* s = \"kind == OpKind::kRelu\";\n"
      "showcase OpKind::kRelu;\n"
      "MyOpKind::kRelu == k;\n"
      "auto r = R\"x(\" == OpKind::kRelu)x\";\n";
  EXPECT_TRUE(FindComparisons("f.cc", text).empty())
      << absl::StrJoin(Kinds(FindComparisons("f.cc", text)), ", ");
}

TEST(OpKindComparisonsTest, AllowListCoversCountsAndFolders) {
  std::vector<std::string> errors;
  const std::vector<Allowed> allowed = ParseAllowList(
      "# comment\n"
      "a/x.cc kAdd 1 why\n"
      "lib/ kRelu 2 pending\n",
      &errors);
  EXPECT_TRUE(errors.empty());
  const std::vector<Comparison> found = {{"a/x.cc", 3, "Add"},
                                         {"a/x.cc", 9, "Add"},
                                         {"lib/k/y.cc", 1, "Relu"},
                                         {"b/z.cc", 4, "Mul"}};
  EXPECT_EQ(CheckAllowList(found, allowed),
            (std::vector<std::string>{
                "a/x.cc:9: OpKind::kAdd compared outside the op table: give "
                "the op a flag, a trait or a column in ir/ops.def and read "
                "that instead",
                "b/z.cc:4: OpKind::kMul compared outside the op table: give "
                "the op a flag, a trait or a column in ir/ops.def and read "
                "that instead",
                "allow-list entry 'lib/ kRelu 2' matches 1 comparisons: "
                "lower its count or remove it"}));
  ParseAllowList("a/x.cc Add 1 why\nb.cc kAdd 0 why\nc.cc kAdd 1\n", &errors);
  EXPECT_EQ(errors.size(), 3u);
}

// The tree: every comparison is on the allow-list, which is no longer than
// it needs to be. QFORGE_OP_KIND_TREE=<checkout> checks another tree
// against this allow-list (to count an older one).
TEST(OpKindComparisonsTest, TreeHoldsOnlyTheAllowedComparisons) {
  const char* other = std::getenv("QFORGE_OP_KIND_TREE");
  const std::filesystem::path root =
      other != nullptr ? other : QFORGE_SOURCE_DIR;
  std::vector<std::string> errors;
  const std::vector<Allowed> allowed =
      ParseAllowList(ReadText(std::filesystem::path(QFORGE_SOURCE_DIR) /
                              "tests/ir/op_kind_allowlist.txt"),
                     &errors);
  ASSERT_TRUE(errors.empty()) << absl::StrJoin(errors, "\n");
  ASSERT_FALSE(allowed.empty());
  const std::vector<Comparison> found = ScanTree(root);
  ASSERT_FALSE(found.empty()) << "no sources under " << root;
  std::set<std::string> files;
  int outside_kernels = 0;
  for (const Comparison& c : found) {
    files.insert(c.file);
    outside_kernels += c.file.rfind("runtime/kernels/", 0) != 0;
  }
  std::printf(
      "%zu comparisons with an OpKind row in %zu files (%d outside "
      "runtime/kernels/)\n",
      found.size(), files.size(), outside_kernels);
  const std::vector<std::string> problems = CheckAllowList(found, allowed);
  EXPECT_TRUE(problems.empty()) << absl::StrJoin(problems, "\n");
}

}  // namespace
}  // namespace qforge::testing
