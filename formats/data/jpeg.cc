// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/jpeg.h"

#include <csetjmp>
#include <cstddef>
#include <cstdio>  // jpeglib.h wants FILE and size_t declared first
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/data/bytes.h"
// clang-format off
#include <jpeglib.h>
#include <jerror.h>
// clang-format on

namespace qforge::formats {
namespace {

// Bound on libjpeg's own memory. Baseline files need a few rows; a
// progressive file holds all its DCT coefficients, 2 bytes per sample: 512
// MiB for a 4-component image at the 64 Mpx limit. Beyond the bound libjpeg
// fails cleanly (it has no backing store) instead of exhausting memory.
constexpr long kMaxLibjpegMemory = long{1} << 30;

// libjpeg reports a fatal error by calling error_exit, which must not
// return; ours longjmps back to the setjmp in ReadHeader or Decompress.
// Those two functions hold no C++ object with a destructor (longjmp would
// skip it): they work on this plain struct, which their caller owns and
// destroys with jpeg_destroy_decompress after either outcome.
struct Decoder {
  jpeg_decompress_struct cinfo;
  jpeg_error_mgr err;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  // What Decompress must see after jpeg_start_decompress before it writes
  // rows into the caller's buffer.
  JDIMENSION want_width, want_height;
  int want_components;
};

Decoder* Owner(j_common_ptr cinfo) {
  // client_data points back at the Decoder (set by Init).
  return static_cast<Decoder*>(cinfo->client_data);
}

[[noreturn]] void ErrorExit(j_common_ptr cinfo) {
  Decoder* d = Owner(cinfo);
  (*cinfo->err->format_message)(cinfo, d->message);
  longjmp(d->jump, 1);
}

// Warnings (msg_level -1) and trace messages (>= 0). A premature end of
// data is fatal: the rest of the image would be invented gray, and qforge
// refuses truncated PNGs too. Other warnings (corrupt entropy-coded data,
// stray bytes before a marker) leave libjpeg's best-effort pixels, as stb
// decoded such files; nothing is printed.
void EmitMessage(j_common_ptr cinfo, int msg_level) {
  if (msg_level >= 0) return;
  if (cinfo->err->msg_code == JWRN_JPEG_EOF) ErrorExit(cinfo);
  ++cinfo->err->num_warnings;
}

void OutputMessage(j_common_ptr) {}  // libjpeg's default prints to stderr

void Init(Decoder* d) {
  *d = Decoder{};
  d->cinfo.err = jpeg_std_error(&d->err);
  d->err.error_exit = ErrorExit;
  d->err.emit_message = EmitMessage;
  d->err.output_message = OutputMessage;
  d->cinfo.client_data = d;
}

// Safe whatever state `d` is in, even if jpeg_create_decompress failed
// (libjpeg then left cinfo.mem null, which destroy checks).
class DestroyOnExit {
 public:
  explicit DestroyOnExit(Decoder* d) : d_(d) {}
  DestroyOnExit(const DestroyOnExit&) = delete;
  DestroyOnExit& operator=(const DestroyOnExit&) = delete;
  ~DestroyOnExit() { jpeg_destroy_decompress(&d_->cinfo); }

 private:
  Decoder* d_;
};

// --- The only functions that call into libjpeg fallibly. False: libjpeg
// failed, d->message says why.

bool ReadHeader(Decoder* d, const uint8_t* data, size_t size) {
  if (setjmp(d->jump)) return false;
  jpeg_create_decompress(&d->cinfo);
  d->cinfo.mem->max_memory_to_use = kMaxLibjpegMemory;
  jpeg_mem_src(&d->cinfo, data, static_cast<unsigned long>(size));
  jpeg_read_header(&d->cinfo, TRUE);
  return true;
}

// Decodes into `out`, rows of `row_bytes`, after ReadHeader succeeded.
bool Decompress(Decoder* d, J_COLOR_SPACE space, uint8_t* out,
                size_t row_bytes) {
  if (setjmp(d->jump)) return false;
  d->cinfo.out_color_space = space;
  // libjpeg's defaults, spelled out: full scale (DCT scaling would change
  // what ResizeBilinear sees), the accurate integer IDCT, smooth chroma
  // upsampling.
  d->cinfo.scale_num = 1;
  d->cinfo.scale_denom = 1;
  d->cinfo.dct_method = JDCT_ISLOW;
  d->cinfo.do_fancy_upsampling = TRUE;
  jpeg_start_decompress(&d->cinfo);
  if (d->cinfo.output_width != d->want_width ||
      d->cinfo.output_height != d->want_height ||
      d->cinfo.output_components != d->want_components) {
    snprintf(d->message, sizeof(d->message),
             "libjpeg output is %ux%ux%d, expected %ux%ux%d",
             d->cinfo.output_width, d->cinfo.output_height,
             d->cinfo.output_components, d->want_width, d->want_height,
             d->want_components);
    return false;
  }
  while (d->cinfo.output_scanline < d->cinfo.output_height) {
    JSAMPROW row = out + d->cinfo.output_scanline * row_bytes;
    jpeg_read_scanlines(&d->cinfo, &row, 1);
  }
  // No jpeg_finish_decompress: the pixels are all here, and what follows
  // the last scan (normally just EOI) cannot change them.
  return true;
}

// ---

absl::Status LibjpegError(const Decoder& d, absl::string_view file) {
  return DataError(
      file, absl::StrCat("cannot decode image (libjpeg: ", d.message, ")"));
}

// The bytes from the SOI marker on: libjpeg wants FF D8 first, stb also
// took FF fill bytes before it (IsJpeg).
absl::Span<const uint8_t> FromSoi(absl::Span<const uint8_t> bytes) {
  size_t i = 0;
  while (i + 1 < bytes.size() && bytes[i + 1] == 0xFF) ++i;
  return bytes.subspan(i);
}

struct Output {
  J_COLOR_SPACE space;  // what libjpeg writes
  int decoded;          // its channels
  int channels;         // the Image's
};

absl::StatusOr<Output> ChooseOutput(const jpeg_decompress_struct& c,
                                    absl::string_view file) {
  switch (c.jpeg_color_space) {
    case JCS_GRAYSCALE:
      return Output{JCS_GRAYSCALE, 1, 1};
    case JCS_YCbCr:
    case JCS_RGB:
      return Output{JCS_RGB, 3, 3};
    case JCS_CMYK:  // Adobe CMYK and YCCK: libjpeg gives CMYK, we make RGB
    case JCS_YCCK:
      return Output{JCS_CMYK, 4, 3};
    default:
      return DataError(
          file,
          absl::StrCat("cannot decode image (JPEG with ", c.num_components,
                       " color components; qforge reads gray, YCbCr, "
                       "RGB and CMYK JPEGs)"));
  }
}

// round(x * y / 255), exactly (stb_image's stbi__blinn_8x8).
uint8_t MulDiv255(unsigned x, unsigned y) {
  const unsigned t = x * y + 128;
  return static_cast<uint8_t>((t + (t >> 8)) >> 8);
}

// In place, n pixels: libjpeg's CMYK holds the stored Adobe values, which
// are inverted (255 = no ink), so R = (255 - C)(255 - K) / 255 is
// stored C * stored K / 255; likewise G (M) and B (Y). stb_image did the
// same for Adobe CMYK and YCCK files.
void CmykToRgb(uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* s = p + 4 * i;
    uint8_t* q = p + 3 * i;  // q <= s: the forward pass reads before writing
    const uint8_t c = s[0], m = s[1], y = s[2], k = s[3];
    q[0] = MulDiv255(c, k);
    q[1] = MulDiv255(m, k);
    q[2] = MulDiv255(y, k);
  }
}

// Reads the header of the JPEG in `bytes` into `d` (Init'ed by the caller,
// which owns its lifetime) and picks the output colour space.
absl::StatusOr<Output> StartRead(Decoder& d, absl::Span<const uint8_t> bytes,
                                 absl::string_view file) {
  const absl::Span<const uint8_t> data = FromSoi(bytes);
  if (!ReadHeader(&d, data.data(), data.size())) return LibjpegError(d, file);
  return ChooseOutput(d.cinfo, file);
}

}  // namespace

bool IsJpeg(absl::Span<const uint8_t> bytes) {
  size_t i = 0;
  while (i < bytes.size() && bytes[i] == 0xFF) ++i;
  return i > 0 && i < bytes.size() && bytes[i] == 0xD8;
}

absl::StatusOr<JpegHeader> ReadJpegHeader(absl::Span<const uint8_t> bytes,
                                          absl::string_view file) {
  Decoder d;
  Init(&d);
  DestroyOnExit destroy(&d);
  ASSIGN_OR_RETURN(const Output out, StartRead(d, bytes, file));
  JpegHeader header;
  header.height = static_cast<int>(d.cinfo.image_height);
  header.width = static_cast<int>(d.cinfo.image_width);
  header.channels = out.channels;
  return header;
}

absl::StatusOr<Image> DecodeJpeg(
    absl::Span<const uint8_t> bytes, absl::string_view file,
    absl::FunctionRef<absl::Status(int height, int width)> check_size) {
  Decoder d;
  Init(&d);
  DestroyOnExit destroy(&d);
  ASSIGN_OR_RETURN(const Output out, StartRead(d, bytes, file));
  // libjpeg caps each side at 65500, so these fit an int.
  Image image;
  image.height = static_cast<int>(d.cinfo.image_height);
  image.width = static_cast<int>(d.cinfo.image_width);
  image.channels = out.channels;
  RETURN_IF_ERROR(check_size(image.height, image.width));
  const size_t pixels = static_cast<size_t>(image.height) * image.width;
  image.pixels.resize(pixels * out.decoded);
  d.want_width = d.cinfo.image_width;
  d.want_height = d.cinfo.image_height;
  d.want_components = out.decoded;
  if (!Decompress(&d, out.space, image.pixels.data(),
                  static_cast<size_t>(image.width) * out.decoded)) {
    return LibjpegError(d, file);
  }
  if (out.space == JCS_CMYK) {
    CmykToRgb(image.pixels.data(), pixels);
    image.pixels.resize(pixels * 3);
  }
  return image;
}

}  // namespace qforge::formats
