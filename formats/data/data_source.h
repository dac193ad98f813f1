// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The data set behind `--data` for `qforge run`, `calibrate`, `quantize` and
// `report`: a list of specs (syntax in data_spec.h) bound to the model's
// inputs, read as a sequence of samples, one tensor per input each.
//
// Open() checks every file, one at a time (headers, shapes, types, sample
// counts), reading images and .npz files whole to fingerprint them; Get()
// loads one sample on demand (a byte range of an .npy/.bin/.wav, read with
// pread, or one image), so memory does not grow with the number of
// samples. Deflated .npz arrays are the exception: they are kept
// decompressed after Open().
#ifndef QFORGE_FORMATS_DATA_DATA_SOURCE_H_
#define QFORGE_FORMATS_DATA_DATA_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/mapped_file.h"
#include "formats/data/convert.h"
#include "formats/data/data_spec.h"
#include "formats/data/fingerprint.h"
#include "formats/data/image.h"
#include "formats/data/input_desc.h"
#include "ir/host_tensor.h"

namespace qforge::formats {

struct ArrayFit;
class LazyContentHash;
class OpenFile;

struct LoadOptions {
  ImageOptions image;
  int sample_rate = 16000;  // wav files must have it (--sample-rate); 0: any
  // wav windows (--window, --hop; array_fit.h FitWindows): 0 = the input's
  // length, and a hop of one window.
  int64_t window = 0, hop = 0;
  // False: file contents are not hashed and Fingerprint() is empty. Commands
  // that record no fingerprint (run) skip a pass over every data byte.
  bool fingerprint = true;
};

class SampleSource {
 public:
  // Binds `specs` to `inputs` (in model input order) and indexes every file.
  // Errors (one line: file, input, rule) are InvalidArgument for bad data,
  // NotFound / Unavailable for I/O.
  static absl::StatusOr<SampleSource> Open(absl::Span<const std::string> specs,
                                           absl::Span<const InputDesc> inputs,
                                           const LoadOptions& options);

  // Number of samples; every input has this many.
  int64_t size() const { return size_; }

  // Sample `index` in [0, size()): one tensor per model input, in model
  // input order, batch 1, dynamic dims resolved from the data. Safe to call
  // concurrently; the result depends only on `index`.
  absl::StatusOr<std::vector<ir::HostTensor>> Get(int64_t index) const;
  // Get into `tensors`, reusing the buffers of those that already have the
  // sample's type and shape (a loop over samples then allocates and clears
  // no memory per sample). On error `tensors` is unspecified.
  absl::Status GetInto(int64_t index,
                       std::vector<ir::HostTensor>& tensors) const;

  // Where sample `index` comes from, e.g. "imgs/cat.jpg" or
  // "image=x.npy[3], mask=m.npy[3]" (file labels relative to their spec).
  std::string SampleName(int64_t index) const;
  // The stem of the file sample `index` of the first input comes from
  // ("imgs/cat.jpg": "cat"), with "_K" added when that file holds several
  // samples (K: the sample's index in it). Names per-sample side files
  // such as segmentation masks (report --labels DIR).
  std::string SampleStem(int64_t index) const;

  // 16 hex digits identifying the data set and the preprocessing options:
  // FNV-1a 64 over each spec (its NAME, kind and last path component) and
  // its files (label, size, XXH3 of the bytes), specs ordered by the input
  // they feed. Independent of the folder the data sits in, of the machine
  // and of which samples were read before. Empty when opened with
  // LoadOptions::fingerprint false. Thread-safe.
  //
  // Array files are hashed from their samples' bytes as Get() reads them
  // (lazy_content_hash.h); what no sample read is read and hashed here, so
  // this is cheapest after a pass over the samples. Errors: a file that
  // cannot be read any more.
  absl::StatusOr<std::string> Fingerprint() const;

  // Things the user should know about how the files became samples (audio
  // left over after the last window), one line each, for stderr.
  const std::vector<std::string>& notes() const { return notes_; }
  // Every file samples are read from, each once: outputs must not replace
  // one of them.
  std::vector<std::string> FilePaths() const;
  // The inputs (model input order) that some image file feeds.
  std::vector<size_t> ImageInputs() const;

 private:
  // A run of consecutive samples of one input from one file.
  struct Segment {
    enum class Kind { kArray, kImage };
    Kind kind = Kind::kArray;
    std::string path;   // file to read
    std::string label;  // for SampleName
    int64_t count = 0;
    // kArray: sample i is `sample_bytes` bytes at offset + i * stride_bytes
    // from `base` if set (an inflated .npz member, or the file's mapping
    // kept from Open), else read from the file.
    uint64_t offset = 0;
    uint64_t sample_bytes = 0;
    uint64_t stride_bytes = 0;  // from one sample to the next
    int64_t sample_elements = 0;
    Conversion conversion = Conversion::kCopy;
    std::vector<int64_t> shape;
    const uint8_t* base = nullptr;
    std::shared_ptr<const void> owner;  // keeps `base` alive
    // Else read from this descriptor, kept open from Open() (else the file
    // is opened per sample).
    std::shared_ptr<const OpenFile> file;
    // The file's content hash, fed the bytes of each sample read through
    // `file`; null if hashed when opened.
    std::shared_ptr<LazyContentHash> hash;
  };
  // What Fingerprint() hashes of one file: label, size and content, the
  // content hashed when opened (`content`) or as it is read (`lazy`).
  struct FileDigest {
    std::string label;
    uint64_t size = 0;
    uint64_t content = 0;
    std::shared_ptr<LazyContentHash> lazy;
  };
  // One --data spec's part of the fingerprint: FNV-1a over its fixed
  // fields (`prefix`), then its files in order.
  struct SpecDigest {
    size_t order = 0;  // the first input it feeds
    Fnv1a64 prefix;
    std::vector<FileDigest> files;
  };
  struct InputPlan {
    std::vector<Segment> segments;
    std::vector<int64_t> ends;  // cumulative sample counts
  };

  SampleSource() = default;

  // Open() in steps; each names the file and input in its errors.
  absl::Status AddNpz(const DataSpec& spec, SpecDigest& digest);
  absl::Status AddFiles(const DataSpec& spec, size_t input, SpecDigest& digest);
  // `open`, `lazy`: the descriptor samples are read through, and the hash
  // they feed, if kept.
  absl::Status AddFile(size_t input, const SampleFile& file, SpecKind kind,
                       absl::Span<const uint8_t> bytes,
                       const std::shared_ptr<const OpenFile>& open,
                       const std::shared_ptr<LazyContentHash>& lazy);
  // `base`/`owner`: the bytes the offsets refer to, if held in memory.
  void AddArray(size_t input, const std::string& path, std::string label,
                const ArrayFit& fit, uint64_t offset, const uint8_t* base,
                std::shared_ptr<const void> owner);
  // The same, read through `open` (if set) and hashed into `lazy`.
  void AddFileArray(size_t input, const SampleFile& file, const ArrayFit& fit,
                    uint64_t offset,
                    const std::shared_ptr<const OpenFile>& open,
                    const std::shared_ptr<LazyContentHash>& lazy);
  // Sample counts: each input must have data, all the same number.
  absl::Status CountSamples();

  // The segment holding sample `index` of input `input`, and the index
  // within it.
  std::pair<const Segment*, int64_t> Locate(size_t input, int64_t index) const;
  // Loads into `out`, reusing its buffer when its type and shape fit.
  absl::Status Load(size_t input, int64_t index, ir::HostTensor& out) const;

  std::vector<InputDesc> inputs_;
  LoadOptions options_;
  std::vector<InputPlan> plans_;
  int64_t size_ = 0;
  // Specs in the order the fingerprint takes them; empty when
  // LoadOptions::fingerprint is false.
  std::vector<SpecDigest> digests_;
  std::vector<std::string> notes_;
  int64_t kept_mappings_ = 0;    // see kMaxKeptMappings
  uint64_t inflated_bytes_ = 0;  // deflated .npz members held inflated
  // Array files kept open, and the process's limit on open files
  // (DescriptorLimit() in data_source.cc).
  int64_t kept_files_ = 0;
  int64_t descriptor_limit_ = 0;
};

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_DATA_SOURCE_H_
