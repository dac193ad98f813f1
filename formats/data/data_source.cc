// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/data_source.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <filesystem>
#include <limits>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "base/file_io.h"
#include "base/mapped_file.h"
#include "base/status_macros.h"
#include "formats/data/array_fit.h"
#include "formats/data/data_spec.h"
#include "formats/data/file_range.h"
#include "formats/data/fingerprint.h"
#include "formats/data/lazy_content_hash.h"
#include "formats/data/npy.h"
#include "formats/data/wav.h"
#include "ir/types.h"

namespace qforge::formats {
namespace {

// Bump when the bytes a data set turns into change for the same files.
// 2: XXH3 contents; 3: JPEG decoded by libjpeg-turbo (stb_image before).
constexpr char kFingerprintVersion[] = "qforge-data/3";

// .npz files whose mapping stays open for reading samples. Each is one
// kernel mapping (Linux allows ~65k per process); a folder of a hundred
// thousand .npz files reads the files past this count instead.
constexpr int64_t kMaxKeptMappings = 4096;
// Array files (.npy, .bin, .wav) are kept open to read samples from while
// the process has descriptors to spare: at most 256, a quarter of its
// limit (`ulimit -n`, usually 1024), and none once it holds half of it
// (descriptors are numbered from the lowest free one, so a descriptor's
// number tells about how many are open). The rest of the limit is left to
// the files opened as the command goes. Other files are opened per sample,
// and hashed when opened.
int64_t DescriptorLimit() {
  struct rlimit limit;
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 &&
      limit.rlim_cur != RLIM_INFINITY) {
    return static_cast<int64_t>(limit.rlim_cur);
  }
  return 1 << 20;
}

// Deflated .npz members are kept inflated in memory (data_source.h): at
// most half the machine's memory, and half the address space the process
// may use (RLIMIT_AS), over all members.
uint64_t InflateBudget() {
  uint64_t budget = std::numeric_limits<uint64_t>::max();
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) {
    budget = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2;
  }
  struct rlimit limit;
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    budget = std::min<uint64_t>(budget, limit.rlim_cur / 2);
  }
  return budget;
}

// Every error names the model input; parsers only know the file.
absl::Status WithInput(const absl::Status& status, const InputDesc& input) {
  if (status.ok() || absl::StrContains(status.message(), "input '")) {
    return status;
  }
  return absl::Status(status.code(), absl::StrCat(status.message(), " (input '",
                                                  input.name, "')"));
}

std::string LastComponent(absl::string_view path) {
  path = absl::StripSuffix(path, "/");
  const size_t slash = path.rfind('/');
  return std::string(slash == absl::string_view::npos ? path
                                                      : path.substr(slash + 1));
}

uint32_t FloatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

void HashOptions(Fnv1a64& h, const LoadOptions& options) {
  const ImageOptions& image = options.image;
  h.UpdateU64(image.resize_hw.has_value());
  if (image.resize_hw.has_value()) {
    h.UpdateU64(static_cast<uint64_t>(image.resize_hw->first));
    h.UpdateU64(static_cast<uint64_t>(image.resize_hw->second));
  }
  for (const std::vector<float>* values : {&image.mean, &image.std}) {
    h.UpdateU64(values->size());
    for (float v : *values) h.UpdateU64(FloatBits(v));
  }
  h.UpdateU64(image.scale.has_value());
  if (image.scale.has_value()) h.UpdateU64(FloatBits(*image.scale));
  h.UpdateU64(static_cast<uint64_t>(image.color));
  h.UpdateU64(static_cast<uint64_t>(image.layout));
  h.UpdateU64(image.auto_resize);
  h.UpdateU64(static_cast<uint64_t>(options.sample_rate));
  // Only when set, so data sets without windows keep the fingerprints
  // stats files written before --window existed carry.
  if (options.window != 0 || options.hop != 0) {
    h.UpdateU64(static_cast<uint64_t>(options.window));
    h.UpdateU64(static_cast<uint64_t>(options.hop));
  }
}

}  // namespace

absl::StatusOr<SampleSource> SampleSource::Open(
    absl::Span<const std::string> specs, absl::Span<const InputDesc> inputs,
    const LoadOptions& options) {
  if (inputs.empty()) {
    return absl::InvalidArgumentError("the model has no inputs to feed");
  }
  if (specs.empty()) return absl::InvalidArgumentError("no --data given");
  SampleSource source;
  source.inputs_.assign(inputs.begin(), inputs.end());
  source.options_ = options;
  source.plans_.resize(inputs.size());
  source.descriptor_limit_ = DescriptorLimit();

  for (const std::string& text : specs) {
    ASSIGN_OR_RETURN(const DataSpec spec, ParseDataSpec(text, inputs));
    SpecDigest digest;
    digest.prefix.UpdateString(spec.binding);
    digest.prefix.UpdateU64(static_cast<uint64_t>(spec.kind));
    digest.prefix.UpdateString(LastComponent(spec.path));
    digest.order = inputs.size();
    if (spec.kind == SpecKind::kNpz) {
      RETURN_IF_ERROR(source.AddNpz(spec, digest));
    } else {
      if (spec.input >= 0) {
        digest.order = static_cast<size_t>(spec.input);
      } else if (inputs.size() == 1) {
        digest.order = 0;
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("--data '", text, "': the model has ", inputs.size(),
                         " inputs; bind each with NAME=", spec.path,
                         " (inputs: ", InputNames(inputs), ")"));
      }
      RETURN_IF_ERROR(source.AddFiles(spec, digest.order, digest));
    }
    if (options.fingerprint) source.digests_.push_back(std::move(digest));
  }
  RETURN_IF_ERROR(source.CountSamples());

  // Specs feeding the same input keep their order (it is the sample order);
  // otherwise the order on the command line does not matter.
  std::stable_sort(source.digests_.begin(), source.digests_.end(),
                   [](const SpecDigest& a, const SpecDigest& b) {
                     return a.order < b.order;
                   });
  return source;
}

absl::StatusOr<std::string> SampleSource::Fingerprint() const {
  if (!options_.fingerprint) return std::string();
  Fnv1a64 fingerprint;
  fingerprint.UpdateString(kFingerprintVersion);
  HashOptions(fingerprint, options_);
  for (const SpecDigest& d : digests_) {
    Fnv1a64 spec = d.prefix;
    for (const FileDigest& file : d.files) {
      spec.UpdateString(file.label);
      spec.UpdateU64(file.size);
      uint64_t content = file.content;
      if (file.lazy != nullptr) {
        ASSIGN_OR_RETURN(content, file.lazy->Digest());
      }
      spec.UpdateU64(content);
    }
    fingerprint.UpdateU64(spec.digest());
  }
  return fingerprint.HexDigest();
}

absl::Status SampleSource::AddNpz(const DataSpec& spec, SpecDigest& digest) {
  if (spec.input >= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--data '", spec.text, "': an .npz binds its arrays by key; drop '",
        spec.binding, "='"));
  }
  ASSIGN_OR_RETURN(const std::shared_ptr<const MappedFile> mapped,
                   MappedFile::Open(spec.path, /*populate=*/true));
  const absl::Span<const uint8_t> bytes = mapped->bytes();
  // Hashed now: samples come from its inflated members, or from parts.
  if (options_.fingerprint) {
    digest.files.push_back(
        {LastComponent(spec.path), bytes.size(), ContentHash64(bytes), {}});
  }
  const bool keep = kept_mappings_ < kMaxKeptMappings;
  kept_mappings_ += keep ? 1 : 0;
  ASSIGN_OR_RETURN(std::vector<NpzArray> arrays, IndexNpz(bytes, spec.path));
  if (arrays.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(spec.path, ": .npz holds no arrays"));
  }
  for (NpzArray& array : arrays) {
    const std::string where = absl::StrCat(spec.path, "[", array.key, "]");
    ASSIGN_OR_RETURN(const int found, FindInput(array.key, inputs_));
    if (found < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": key '", array.key,
          "' is not a model input (inputs: ", InputNames(inputs_), ")"));
    }
    const size_t input = static_cast<size_t>(found);
    ASSIGN_OR_RETURN(
        const ArrayFit fit,
        FitArray(array.header.type, array.header.shape, inputs_[input], where));
    // Only a member that fits the input, and memory, is inflated.
    if (array.deflated.has_value()) {
      const uint64_t size = array.deflated->uncompressed_size;
      const uint64_t budget = InflateBudget();
      if (size > budget || inflated_bytes_ > budget - size) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": compressed member inflates to ", size,
            " bytes; with the .npz members inflated before it that is more "
            "than qforge keeps in memory (",
            budget,
            " bytes: half the machine's memory or address-space limit); save "
            "it with numpy.savez (uncompressed), which is read in place"));
      }
      inflated_bytes_ += size;
      RETURN_IF_ERROR(InflateNpzArray(bytes, array, spec.path));
    }
    std::string label =
        absl::StrCat(LastComponent(spec.path), "[", array.key, "]");
    if (array.inflated != nullptr) {
      AddArray(input, spec.path, std::move(label), fit, array.data_offset,
               array.inflated->data(), array.inflated);
    } else {
      AddArray(input, spec.path, std::move(label), fit, array.data_offset,
               keep ? bytes.data() : nullptr,
               keep ? mapped : std::shared_ptr<const MappedFile>());
    }
    digest.order = std::min(digest.order, input);
  }
  return absl::OkStatus();
}

absl::Status SampleSource::AddFiles(const DataSpec& spec, size_t input,
                                    SpecDigest& digest) {
  absl::StatusOr<std::vector<SampleFile>> files = ExpandDataSpec(spec);
  if (!files.ok()) return WithInput(files.status(), inputs_[input]);
  digest.prefix.UpdateU64(files->size());
  for (const SampleFile& file : *files) {
    const std::optional<SpecKind> kind = SampleFileKind(file.path);
    if (!kind.has_value()) {
      return WithInput(absl::InvalidArgumentError(
                           absl::StrCat(file.path, ": not a sample file")),
                       inputs_[input]);
    }
    // Array samples are read with pread into the caller's buffer, through
    // a descriptor kept open, and hashed from there as they are read
    // (lazy_content_hash.h). Copying them out of a mapping of the file cost
    // more: the first touch of each mapped page is dear on virtual machines,
    // even after MAP_POPULATE (docs/performance.md). The file is mapped
    // here only to read its header; images, and array files not kept open
    // (see DescriptorLimit()), are read whole now to fingerprint them.
    const bool keep =
        *kind != SpecKind::kImage &&
        kept_files_ < std::min<int64_t>(256, descriptor_limit_ / 4);
    absl::StatusOr<std::shared_ptr<const MappedFile>> mapped =
        MappedFile::Open(file.path, /*populate=*/!keep);
    if (!mapped.ok()) return WithInput(mapped.status(), inputs_[input]);
    const absl::Span<const uint8_t> bytes = (*mapped)->bytes();
    std::shared_ptr<const OpenFile> open;
    if (keep) {
      absl::StatusOr<std::shared_ptr<const OpenFile>> opened =
          OpenFile::Open(file.path);
      // Out of descriptors, or short of them: read this file per sample.
      if (!opened.ok() && !absl::IsResourceExhausted(opened.status())) {
        return WithInput(opened.status(), inputs_[input]);
      }
      if (opened.ok() && (*opened)->descriptor() < descriptor_limit_ / 2) {
        open = *std::move(opened);
        ++kept_files_;
      }
    }
    std::shared_ptr<LazyContentHash> lazy;
    if (open != nullptr && options_.fingerprint) {
      lazy = std::make_shared<LazyContentHash>(open, bytes.size());
    }
    if (options_.fingerprint) {
      digest.files.push_back({file.label, bytes.size(),
                              lazy != nullptr ? 0 : ContentHash64(bytes),
                              lazy});
    }
    RETURN_IF_ERROR(WithInput(AddFile(input, file, *kind, bytes, open, lazy),
                              inputs_[input]));
  }
  return absl::OkStatus();
}

absl::Status SampleSource::AddFile(
    size_t input, const SampleFile& file, SpecKind kind,
    absl::Span<const uint8_t> bytes,
    const std::shared_ptr<const OpenFile>& open,
    const std::shared_ptr<LazyContentHash>& lazy) {
  const InputDesc& in = inputs_[input];
  switch (kind) {
    case SpecKind::kNpy: {
      ASSIGN_OR_RETURN(const NpyHeader header,
                       ParseNpyHeader(bytes, file.path));
      ASSIGN_OR_RETURN(const ArrayFit fit,
                       FitArray(header.type, header.shape, in, file.path));
      AddFileArray(input, file, fit, header.data_offset, open, lazy);
      return absl::OkStatus();
    }
    case SpecKind::kRaw: {
      const std::optional<int> bits = ir::DataTypeBits(in.type);
      if (!bits.has_value() || *bits % 8 != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(file.path, ": input ", DescribeInput(in),
                         " has no fixed byte size; use .npy"));
      }
      const size_t esize = static_cast<size_t>(*bits / 8);
      if (bytes.size() % esize != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            file.path, ": ", bytes.size(), " bytes is not a whole number of ",
            ir::DataTypeName(in.type), " values for input ",
            DescribeInput(in)));
      }
      ASSIGN_OR_RETURN(const ArrayFit fit,
                       FitFlat(static_cast<int64_t>(bytes.size() / esize), in,
                               Conversion::kCopy, file.path));
      AddFileArray(input, file, fit, 0, open, lazy);
      return absl::OkStatus();
    }
    case SpecKind::kWav: {
      Conversion conversion = Conversion::kCopy;
      if (in.type == ir::DataType::kFloat32) {
        conversion = Conversion::kPcm16ToFloat32;
      } else if (in.type != ir::DataType::kInt16) {
        return absl::InvalidArgumentError(
            absl::StrCat(file.path, ": input ", DescribeInput(in),
                         " cannot take audio (float32 or int16 inputs can)"));
      }
      ASSIGN_OR_RETURN(
          const WavInfo info,
          ParseWav(bytes, file.path, WavOptions{options_.sample_rate}));
      int64_t dropped = 0;
      ASSIGN_OR_RETURN(
          const ArrayFit fit,
          FitWindows(info.num_samples, in, options_.window, options_.hop,
                     conversion, file.path, &dropped));
      if (dropped > 0) {
        notes_.push_back(absl::StrCat(
            file.path, ": ", info.num_samples, " samples -> ", fit.count,
            fit.count == 1 ? " window" : " windows", " of ",
            fit.sample_elements, " (hop ", fit.stride_elements, "); the last ",
            dropped, " samples are dropped"));
      }
      AddFileArray(input, file, fit, info.data_offset, open, lazy);
      return absl::OkStatus();
    }
    case SpecKind::kImage: {
      if (absl::Status s = CheckImageInput(in, options_.image); !s.ok()) {
        return absl::Status(s.code(),
                            absl::StrCat(file.path, ": ", s.message()));
      }
      RETURN_IF_ERROR(ProbeImage(bytes, file.path));
      Segment seg;
      seg.kind = Segment::Kind::kImage;
      seg.path = file.path;
      seg.label = file.label;
      seg.count = 1;
      plans_[input].segments.push_back(std::move(seg));
      return absl::OkStatus();
    }
    case SpecKind::kNpz:
    case SpecKind::kList:
    case SpecKind::kDirectory:
    case SpecKind::kGlob:
      break;
  }
  return absl::InternalError("SampleFileKind returned a container kind");
}

void SampleSource::AddArray(size_t input, const std::string& path,
                            std::string label, const ArrayFit& fit,
                            uint64_t offset, const uint8_t* base,
                            std::shared_ptr<const void> owner) {
  Segment seg;
  seg.kind = Segment::Kind::kArray;
  seg.path = path;
  seg.label = std::move(label);
  seg.count = fit.count;
  seg.offset = offset;
  seg.sample_elements = fit.sample_elements;
  seg.conversion = fit.conversion;
  seg.shape = fit.sample_shape;
  const int copy_size =
      static_cast<int>(ir::DenseByteSize(inputs_[input].type, 1).value_or(0));
  const uint64_t element_bytes = SourceElementSize(fit.conversion, copy_size);
  seg.sample_bytes = static_cast<uint64_t>(fit.sample_elements) * element_bytes;
  seg.stride_bytes = static_cast<uint64_t>(fit.stride_elements) * element_bytes;
  seg.base = base;
  seg.owner = std::move(owner);
  plans_[input].segments.push_back(std::move(seg));
}

void SampleSource::AddFileArray(size_t input, const SampleFile& file,
                                const ArrayFit& fit, uint64_t offset,
                                const std::shared_ptr<const OpenFile>& open,
                                const std::shared_ptr<LazyContentHash>& lazy) {
  AddArray(input, file.path, file.label, fit, offset, nullptr, nullptr);
  Segment& seg = plans_[input].segments.back();
  seg.file = open;
  seg.hash = lazy;
}

absl::Status SampleSource::CountSamples() {
  for (size_t i = 0; i < inputs_.size(); ++i) {
    InputPlan& plan = plans_[i];
    if (plan.segments.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("no --data for input ", DescribeInput(inputs_[i]),
                       " (inputs: ", InputNames(inputs_), ")"));
    }
    int64_t total = 0;
    for (const Segment& seg : plan.segments) {
      total += seg.count;
      plan.ends.push_back(total);
    }
    if (i == 0) {
      size_ = total;
    } else if (total != size_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "inputs disagree on the number of samples: '", inputs_[0].name,
          "' has ", size_, ", '", inputs_[i].name, "' has ", total));
    }
  }
  return absl::OkStatus();
}

std::pair<const SampleSource::Segment*, int64_t> SampleSource::Locate(
    size_t input, int64_t index) const {
  const InputPlan& plan = plans_[input];
  const size_t k = static_cast<size_t>(
      std::upper_bound(plan.ends.begin(), plan.ends.end(), index) -
      plan.ends.begin());
  const int64_t start = k == 0 ? 0 : plan.ends[k - 1];
  return {&plan.segments[k], index - start};
}

absl::Status SampleSource::Load(size_t input, int64_t index,
                                ir::HostTensor& out) const {
  const auto [seg, local] = Locate(input, index);
  const InputDesc& in = inputs_[input];
  if (seg->kind == Segment::Kind::kImage) {
    ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes,
                     ReadFileBytes(seg->path));
    ASSIGN_OR_RETURN(out,
                     LoadImageTensor(bytes, in, options_.image, seg->path));
    return absl::OkStatus();
  }
  const uint64_t offset =
      seg->offset + static_cast<uint64_t>(local) * seg->stride_bytes;
  // A default-constructed tensor may already have the type and a scalar's
  // shape but no buffer, so the size decides too.
  int64_t elements = 1;
  for (int64_t d : seg->shape) elements *= d;
  if (out.type() != in.type || out.shape() != seg->shape ||
      static_cast<int64_t>(out.ByteSize()) !=
          ir::DenseByteSize(in.type, elements).value_or(0)) {
    out = ir::HostTensor(in.type, seg->shape);
  }
  const int64_t count = seg->conversion == Conversion::kCopy
                            ? static_cast<int64_t>(seg->sample_bytes)
                            : seg->sample_elements;
  if (seg->conversion == Conversion::kCopy
          ? out.ByteSize() != seg->sample_bytes
          : out.ByteSize() != static_cast<size_t>(count) * 4) {
    return absl::InternalError(
        absl::StrCat(seg->path, ": sample size mismatch"));
  }
  const size_t size = static_cast<size_t>(seg->sample_bytes);
  std::vector<uint8_t> read;
  const uint8_t* src = nullptr;
  if (seg->base != nullptr) {
    src = seg->base + offset;
  } else {
    // Through the descriptor kept open, else one of this sample's own;
    // straight into the tensor when nothing is converted.
    std::shared_ptr<const OpenFile> file = seg->file;
    if (file == nullptr) {
      ASSIGN_OR_RETURN(file, OpenFile::Open(seg->path));
    }
    uint8_t* dst = out.data();
    if (seg->conversion != Conversion::kCopy) {
      read.resize(size);
      dst = read.data();
    }
    RETURN_IF_ERROR(file->ReadAt(offset, absl::MakeSpan(dst, size)));
    src = dst;
  }
  // In cache now: the cheapest time to hash them.
  if (seg->hash != nullptr) seg->hash->Read(offset, absl::MakeSpan(src, size));
  if (src != out.data())
    ConvertElements(seg->conversion, src, count, out.data());
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ir::HostTensor>> SampleSource::Get(
    int64_t index) const {
  std::vector<ir::HostTensor> tensors;
  RETURN_IF_ERROR(GetInto(index, tensors));
  return tensors;
}

absl::Status SampleSource::GetInto(int64_t index,
                                   std::vector<ir::HostTensor>& tensors) const {
  if (index < 0 || index >= size_) {
    return absl::OutOfRangeError(absl::StrCat(
        "sample index ", index, " is out of range (", size_, " samples)"));
  }
  tensors.resize(inputs_.size());
  for (size_t i = 0; i < inputs_.size(); ++i) {
    absl::Status s = Load(i, index, tensors[i]);
    if (!s.ok()) return WithInput(s, inputs_[i]);
  }
  return absl::OkStatus();
}

std::string SampleSource::SampleName(int64_t index) const {
  if (index < 0 || index >= size_) return "";
  std::vector<std::string> parts;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const auto [seg, local] = Locate(i, index);
    std::string name = seg->label;
    if (seg->count > 1) absl::StrAppend(&name, "[", local, "]");
    if (inputs_.size() > 1) name = absl::StrCat(inputs_[i].name, "=", name);
    parts.push_back(std::move(name));
  }
  return absl::StrJoin(parts, ", ");
}

std::string SampleSource::SampleStem(int64_t index) const {
  if (index < 0 || index >= size_ || inputs_.empty()) return "";
  const auto [seg, local] = Locate(0, index);
  std::string stem = std::filesystem::path(seg->path).stem().string();
  if (seg->count > 1) absl::StrAppend(&stem, "_", local);
  return stem;
}

std::vector<std::string> SampleSource::FilePaths() const {
  std::vector<std::string> paths;
  for (const InputPlan& plan : plans_) {
    for (const Segment& seg : plan.segments) {
      if (paths.empty() || paths.back() != seg.path) paths.push_back(seg.path);
    }
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

std::vector<size_t> SampleSource::ImageInputs() const {
  std::vector<size_t> out;
  for (size_t i = 0; i < plans_.size(); ++i) {
    for (const Segment& seg : plans_[i].segments) {
      if (seg.kind == Segment::Kind::kImage) {
        out.push_back(i);
        break;
      }
    }
  }
  return out;
}

}  // namespace qforge::formats
