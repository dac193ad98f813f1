// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// UTF-8 validation and escaping (base/text.h), against the boundaries of
// RFC 3629 / Unicode table 3-7.
#include "base/text.h"

#include "gtest/gtest.h"

namespace qforge {
namespace {

TEST(TextTest, ValidUtf8IsKept) {
  for (const char* s :
       {"", "conv/Relu:0", "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
        "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf", "a\\b"}) {
    EXPECT_TRUE(IsValidUtf8(s)) << s;
    EXPECT_EQ(EscapeInvalidUtf8(s), s);
  }
}

TEST(TextTest, InvalidBytesAreEscapedOneByOne) {
  EXPECT_EQ(EscapeInvalidUtf8("in\xffput"), "in\\xffput");
  EXPECT_EQ(EscapeInvalidUtf8("\xc0\xaf"), "\\xc0\\xaf");  // overlong '/'
  EXPECT_EQ(EscapeInvalidUtf8("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // surrogate
  EXPECT_EQ(EscapeInvalidUtf8("\xf4\x90\x80\x80"),
            "\\xf4\\x90\\x80\\x80");                       // > U+10FFFF
  EXPECT_EQ(EscapeInvalidUtf8("\xe2\x82"), "\\xe2\\x82");  // truncated
  EXPECT_EQ(EscapeInvalidUtf8("\xc3\xa9\x80"), "\xc3\xa9\\x80");
  EXPECT_FALSE(IsValidUtf8("\x80"));
  EXPECT_TRUE(IsValidUtf8(EscapeInvalidUtf8("\xfe\xff\xc3")));
}

TEST(TextTest, MessagesEscapeControlCharactersToo) {
  EXPECT_EQ(EscapeForMessage("a\nb\tc\x1b[31m\x7f"),
            "a\\x0ab\\x09c\\x1b[31m\\x7f");
  EXPECT_EQ(EscapeForMessage("caf\xc3\xa9 \xff"), "caf\xc3\xa9 \\xff");
  EXPECT_EQ(EscapeForMessage(std::string("a\0b", 3)), "a\\x00b");
}

}  // namespace
}  // namespace qforge
