// Which inputs float_vs_litert.mjs feeds each corpus model: the real data that
// fits it (../shared/corpus/README.md sections 1, 2 and 5), else seeded random
// values in a sensible range. One entry per model or family; paths are
// relative to the corpus folder. The first `--samples` samples of a recipe
// are used, so the most telling files come first.
//
// Recipe kinds:
//   { kind: 'qforge-data', specs: [...], flags: {...} }
//       `qforge run --data` specs and image/data flags (scale, mean, std,
//       color, resize). The tensors are made by qforge_make_inputs (the same
//       code as `qforge run`) and written as .npy, which both runtimes get.
//   { kind: 'random', range: [lo, hi], fixed: [{ input: NAME, values }] }
//       float inputs uniform in [lo, hi) instead of [-1, 1); integer and bool
//       inputs as lib/inputs.mjs makes them (index inputs within the dim
//       they index); `fixed` inputs (by tensor name) hold `values`.
//   { kind: 'raw-inputs', inputs: [{ raw: FILE } | { mask: K }, ...] }
//       one sample, per input (subgraph 0 order): a raw little-endian file of
//       the input's dtype, zero-padded or cut to the input's size; or K ones
//       then zeros.
// Models under models/glow/ without an entry get their golden inputs
// (data/glow/.../NAME.inpK: one pad byte, then the raw tensor of input K).
// Anything else: random floats in [-1, 1).

const D = 'data';
const list = (dir, names) => names.map((n) => `${D}/${dir}/${n}`);

// Data shorthands of the corpus README (section 1), most useful files first.
const IMAGENET = [
  ...list('coral', ['grace_hopper.bmp', 'cat.bmp', 'parrot.jpg', 'bird.bmp']),
];
const FACES = [
  ...list('coral', ['face.jpg']),
  `${D}/mediapipe/mediapipe/framework/debug/testdata/sergey.png`,
  `${D}/mediapipe/mediapipe/calculators/video/testdata/lenna.png`,
];
const HANDS = [
  `${D}/mediapipe/mediapipe/model_maker/python/vision/gesture_recognizer/testdata/raw_data/four/06aa70cc-a12a-4b1e-85cf-e54d44c19a3a.jpg`,
  `${D}/mediapipe/mediapipe/model_maker/python/vision/gesture_recognizer/testdata/raw_data/call/0413d5c5-f5ba-476f-a921-ea5e967692a9.jpg`,
  `${D}/mediapipe/mediapipe/model_maker/python/vision/gesture_recognizer/testdata/raw_data/four/077fa4bf-a99e-496b-b895-709afc614eec.jpg`,
];
const POSE = [
  `${D}/tf-examples/lite/examples/pose_estimation/raspberry_pi/test_data/image1.png`,
  `${D}/coral/squat.bmp`,
  `${D}/litert/tflite/experimental/acceleration/mini_benchmark/data/person_192_192_3.jpeg`,
];
const PORTRAIT = [
  `${D}/mediapipe/mediapipe/framework/debug/testdata/sergey.png`,
  `${D}/mediapipe/mediapipe/calculators/video/testdata/lenna.png`,
  `${D}/coral/face.jpg`,
];
const PERSON96 = list('tflite-micro/tensorflow/lite/micro/examples/person_detection/testdata', ['person.bmp', 'no_person.bmp']);
const MNIST = list('tflite-micro/tensorflow/lite/micro/examples/mnist_lstm/samples', ['sample0.png', 'sample7.png', 'sample3.png']);
// No CIFAR-10 images in the corpus: photos resized to 32x32 as a proxy.
const CIFAR_PROXY = list('coral', ['cat.bmp', 'bird.bmp', 'dragonfly.bmp']);

// Value ranges as image flags (pixels are 0..255).
const UNIT = { scale: 1 / 255 };                 // [0, 1]
const SIGNED = { mean: [127.5], std: [127.5] };  // [-1, 1]
const RAW = {};                                  // 0..255

const images = (specs, flags, note) => ({ kind: 'qforge-data', specs, flags, note });

/** [{ model, recipe }]: `model` is a path relative to the corpus folder. */
export const CASES = [
  // MLPerf Tiny: ranges from their int8 twins (README section 2).
  { model: 'models/mlperf-tiny/vww_96_float.tflite', recipe: images(PERSON96, UNIT, 'PERSON96 in [0,1]') },
  { model: 'models/mlperf-tiny/vww_96_14blk_836k_float.tflite', recipe: images(PERSON96, UNIT, 'PERSON96 in [0,1]') },
  { model: 'models/mlperf-tiny/pretrainedResnet.tflite', recipe: images(CIFAR_PROXY, RAW, 'CIFAR proxy photos 32x32, 0..255') },
  { model: 'models/mlperf-tiny/trainedResnet_6blk_750k_float.tflite', recipe: images(CIFAR_PROXY, RAW, 'CIFAR proxy photos 32x32, 0..255') },
  { model: 'models/mlperf-tiny/model_ToyCar.tflite',
    recipe: { kind: 'qforge-data', specs: [`${D}/mlperf-tiny/benchmark/reference_submissions/anomaly_detection/datasets/dcase01/normal_id_01_00000000_hist_librosa.bin`], flags: {}, note: 'real 640-d log-mel vectors (.bin)' } },

  // MNIST digits in [0, 1] (conv_fc_mnist's a8w8 twin; trained_lstm's int8 twin).
  { model: 'models/ai-edge-quantizer/conv_fc_mnist.tflite', recipe: images(MNIST, UNIT, 'MNIST in [0,1]') },
  { model: 'models/tflite-micro/trained_lstm.tflite', recipe: images(MNIST, UNIT, 'MNIST in [0,1]') },

  // ImageNet MobileNets take [-1, 1] (their uint8 twins).
  { model: 'models/tflite2onnx/mobilenet_v1_0.25_128.tflite', recipe: images(IMAGENET, SIGNED, 'IMAGENET in [-1,1]') },
  { model: 'models/tflite-support/mobilenet_v1_0.25_224_1_metadata_1.tflite', recipe: images(IMAGENET, SIGNED, 'IMAGENET in [-1,1]') },
  // Integer reference exported from PyTorch: torchvision's normalization, NCHW.
  { model: 'int_refs/tflite-micro/mobilenet_v2_quantized_1x3x224x224.tflite',
    recipe: images(IMAGENET, { mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375], layout: 'nchw', resize: '224x224' }, 'IMAGENET, torchvision normalization, NCHW') },
  { model: 'models/tflite-support/2022IDDetectorWithMetadata.tflite', recipe: images(IMAGENET, UNIT, 'photos as proxy, [0,1] (assumed)') },

  // MediaPipe: ranges of their graphs' ImageToTensor / TfLiteConverter steps
  // (detectors [-1,1], landmark and segmentation models [0,1]); only
  // face_detection_short_range's is stated by the corpus README.
  ...['face_detection_back', 'face_detection_front', 'face_detection_full_range', 'face_detection_full_range_sparse', 'face_detection_short_range']
    .map((m) => ({ model: `models/mediapipe/${m}.tflite`, recipe: images(FACES, SIGNED, 'FACES in [-1,1]') })),
  ...['face_landmark__20201209', 'face_landmark__20211006']
    .map((m) => ({ model: `models/mediapipe/${m}.tflite`, recipe: images(FACES, UNIT, 'FACES in [0,1]') })),
  ...['hand_landmark_3d', 'hand_landmark__20200521', 'hand_landmark__20201104', 'hand_landmark_sparse__20210227', 'hand_landmark_sparse__20211006', 'hand_recrop', 'palm_detection_full']
    .map((m) => ({ model: `models/mediapipe/${m}.tflite`, recipe: images(HANDS, UNIT, 'HANDS in [0,1]') })),
  { model: 'models/mediapipe/palm_detection.tflite', recipe: images(HANDS, SIGNED, 'HANDS in [-1,1]') },
  { model: 'models/mediapipe/pose_detection__20201209.tflite', recipe: images(POSE, SIGNED, 'POSE in [-1,1]') },
  ...['pose_landmark_lite__20210624', 'pose_landmark_lite__20210818']
    .map((m) => ({ model: `models/mediapipe/${m}.tflite`, recipe: images(POSE, UNIT, 'POSE in [0,1]') })),
  { model: 'models/mediapipe/selfie_segmentation_landscape.tflite', recipe: images(PORTRAIT, UNIT, 'PORTRAIT in [0,1]') },
  // 4th channel = previous mask; an RGB image gets alpha 255 (1.0).
  { model: 'models/mediapipe/hair_segmentation.tflite', recipe: images(PORTRAIT, UNIT, 'PORTRAIT in [0,1], mask channel 1') },
  { model: 'models/mediapipe/knift_float.tflite', recipe: { kind: 'random', range: [0, 1], note: 'random patches in [0,1) (batch 200 is no image input)' } },

  // Synthetic ranges named by the README.
  { model: 'models/tflite-micro/hello_world_no_quant.tflite', recipe: { kind: 'random', range: [0, 2 * Math.PI], note: 'x uniform in [0, 2π)' } },
  { model: 'models/tflite-micro/sine_float.tflite', recipe: { kind: 'random', range: [0, 2 * Math.PI], note: 'x uniform in [0, 2π)' } },

  // The audio front end: the golden decoded samples, zero-padded, and their mask.
  { model: 'models/litert/frontend_sl_v1.tflite',
    recipe: { kind: 'raw-inputs', inputs: [{ mask: 92137 }, { raw: `${D}/litert/support/preprocessor/testdata/decoded_audio_samples.bin` }], note: 'decoded_audio_samples.bin padded + mask' } },

  // Shape operands fed as inputs: the static output shape's values, not
  // random multiples (which make outputs of up to 9^4 times the input).
  { model: 'models/litert/dynamic_shapes.tflite', recipe: { kind: 'random', fixed: [{ input: 'z', values: [16] }], note: 'random, z = 16 (a row count: random values cast to 0 rows)' } },
  { model: 'models/litert/simple_topk_op_runtime_k.tflite', recipe: { kind: 'random', fixed: [{ input: 'serving_default_k:0', values: [5] }], note: 'random, k = 5' } },
  { model: 'models/litert/simple_tile_op__20250825.tflite', recipe: { kind: 'random', fixed: [{ input: 'arg1', values: [1, 1, 1, 2] }], note: 'random, multiples [1,1,1,2] (the static output shape)' } },

  // Unit models whose ops want positive inputs (square roots, divisors).
  ...['ai-edge-quantizer/single_rsqrt', 'ai-edge-quantizer/single_sqrt', 'ai-edge-quantizer/single_div', 'ai-edge-quantizer/duplicated_tensor_names',
    'litert/sqrt_mean_mul_multiple', 'litert/sqrt_mean_mul_ops']
    .map((m) => ({ model: `models/${m}.tflite`, recipe: { kind: 'random', range: [0.25, 2], note: 'random in [0.25,2) (sqrt/rsqrt/div)' } })),
];

const BY_MODEL = new Map(CASES.map((c) => [c.model, c.recipe]));

/** The recipe for `rel` (a path relative to the corpus folder), or null. */
export function recipeFor(rel) {
  return BY_MODEL.get(rel) ?? null;
}
