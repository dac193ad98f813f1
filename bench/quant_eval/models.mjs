// The models quant_eval.mjs quantizes, the real data each gets (split into
// calibration and held-out evaluation samples) and the official quantized
// twins it is compared with. Paths are relative to the corpus folder; the
// choices follow ../shared/corpus/README.md: section 1 (real models and the
// data that fits them), section 2 (twins; the input ranges implied by the
// twins' input quantization), section 5 (data inventory), section 7 (starter
// set).
//
// Data recipes (`data`):
//   { kind: 'qforge-data', flags, calib: [specs], eval: [specs] }
//       images / .bin files turned into tensors by qforge_make_inputs (the
//       `--data` code of qforge itself), one list per side: calibration and
//       evaluation never share a file.
//   { kind: 'qforge-data', flags, pool: [specs], split: 'halves' }
//       one file holding many samples (ToyCar's 40 vectors): the first half
//       calibrates, the second half evaluates.
//   { kind: 'random', range: [lo, hi], calibSeed, evalSeed, calibN, evalN }
//       synthetic inputs named by the corpus README (hello_world: x uniform
//       in [0, 2π)), drawn from two different seeds.
// `maxCalib` / `maxEval` cap the samples (run time on the 2-core machine).
// `classifier`: output 0 is class scores, so top-1 agreement is reported.
// `skip`: listed as not evaluated, with the reason.
// Twins (`twins`): `gate` 'int8' = ours must be within 1 dB of the twin's
// SQNR (our int8 vs the twin); 'dynamic' = our dynamic-range SQNR must be no
// worse than the twin's; null = listed for information (different weights,
// partial quantization, QAT models).

const D = 'data';
const MB = `${D}/litert/tflite/experimental/acceleration/mini_benchmark/data`;
const HAND_DIR = `${D}/mediapipe/mediapipe/model_maker/python/vision/gesture_recognizer/testdata/raw_data`;

// Every natural photo of the corpus data (section 5), one copy of each
// (grace_hopper.jpg/_224.jpg/label_image bmp, burger-224.png, resized_cat.bmp
// are copies of files listed here and left out, so that a calibration photo
// never reappears among the evaluation photos). Left out as well:
// pose_estimation/test_data/image1.png, an RGBA render whose transparent
// background decodes to black (the data layer drops alpha, as most decoders
// do); on the face/pose detectors it drives activations 100x past every other
// photo (classificator logits down to -25149), and one such sample ruins any
// min/max calibration; and mediapipe's image_to_tensor/input.jpg, a synthetic
// 64x128 test pattern (saturated red and white blobs on black) that doubles
// the early-layer activation maxima of the VWW models. Hands and MNIST digits
// are pools of their own. Sorted by path: the split alternates.
export const PHOTOS = [
  `${D}/coral/bird.bmp`, `${D}/coral/cat.bmp`, `${D}/coral/dragonfly.bmp`, `${D}/coral/face.jpg`,
  `${D}/coral/grace_hopper.bmp`, `${D}/coral/hot_dog.jpg`, `${D}/coral/kite_and_cold.jpg`,
  `${D}/coral/missvickie_potato_chips.bmp`, `${D}/coral/owl.jpg`, `${D}/coral/parrot.jpg`, `${D}/coral/pets.jpg`,
  `${D}/coral/posenet/test_image.bmp`, `${D}/coral/squat.bmp`, `${D}/coral/sunflower.bmp`,
  `${D}/litert/litert/js/demos/mobilenetv2/static/Welsh_Springer_Spaniel.jpg`,
  `${D}/litert/support/preprocessor/testdata/apple.png`,
  `${D}/litert/tensor/examples/segmentation/image.jpeg`,
  ...['chair_224_224_3', 'city_224_224_3', 'early_color_photo_face_128_224_3', 'early_color_photo_faces_320_320_3',
    'face_in_painting_128_224_3', 'face_in_snow_128_224_3', 'faces_in_painting_320_320_3', 'faces_in_snow_320_320_3',
    'flowers_192_192_3', 'food_224_224_3', 'person_192_192_3', 'plant_224_224_3', 'rural_192_192_3',
    'shoe_224_224_3', 'single_face_128_224_3', 'single_face_320_320_3', 'snowman_128_224_3', 'snowman_320_320_3',
    'street_192_192_3', 'toys_192_192_3'].map((n) => `${MB}/${n}.jpeg`),
  `${D}/mediapipe/mediapipe/calculators/image/testdata/dino.jpg`,
  `${D}/mediapipe/mediapipe/calculators/video/testdata/lenna.png`,
  `${D}/mediapipe/mediapipe/framework/debug/testdata/sergey.png`,
  `${D}/tf-examples/lite/examples/image_classification/android/app/src/androidTest/assets/coffee.jpg`,
  `${D}/tf-examples/lite/examples/image_classification/raspberry_pi/test_data/fox.jpeg`,
  `${D}/tf-examples/lite/examples/image_segmentation/raspberry_pi/test_data/input_image.jpeg`,
  `${D}/tf-examples/lite/examples/object_detection/android/app/src/androidTest/assets/cat1.png`,
  `${D}/tf-examples/lite/examples/object_detection/raspberry_pi/test_data/table.jpg`,
  ...['image2.jpeg', 'image3.jpeg'].map((n) => `${D}/tf-examples/lite/examples/pose_estimation/raspberry_pi/test_data/${n}`),
  ...['burger.jpg', 'cats_and_dogs.jpg', 'multi_objects.jpg', 'segmentation_input_rotation0.jpg', 'sparrow.png']
    .map((n) => `${D}/tflite-support/tensorflow_lite_support/cc/test/testdata/task/vision/${n}`),
];

// People (FACES, POSE and PORTRAIT of the README): faces first.
export const PEOPLE = [
  `${D}/coral/face.jpg`, `${D}/coral/grace_hopper.bmp`,
  `${D}/mediapipe/mediapipe/framework/debug/testdata/sergey.png`,
  `${D}/mediapipe/mediapipe/calculators/video/testdata/lenna.png`,
  ...['early_color_photo_face_128_224_3', 'early_color_photo_faces_320_320_3', 'face_in_painting_128_224_3',
    'faces_in_painting_320_320_3', 'face_in_snow_128_224_3', 'faces_in_snow_320_320_3', 'single_face_128_224_3',
    'single_face_320_320_3'].map((n) => `${MB}/${n}.jpeg`),
  ...['image2.jpeg', 'image3.jpeg'].map((n) => `${D}/tf-examples/lite/examples/pose_estimation/raspberry_pi/test_data/${n}`),
  `${D}/coral/squat.bmp`, `${D}/coral/posenet/test_image.bmp`, `${MB}/person_192_192_3.jpeg`,
];

// HANDS: 40 gesture photos, 10 per class (call, four, none, rock).
const HAND_FILES = {
  call: ['0413d5c5-f5ba-476f-a921-ea5e967692a9', '044768ad-1709-44ba-b041-c2f8cbe4c166', '0e022ee9-74fd-44fe-adad-60c11835e44f',
    '143f8b21-1dc3-4383-bf36-0a54244dfbc0', '172ba7f6-c6ba-4398-89a2-25375dccfefa', '17b3aa02-dc4d-448d-8601-e2b67193d436',
    '17d804b5-7118-462d-8191-58d764f591b8', '1d65a858-623a-4984-9420-958c7e870c3e', '1f5fb137-c7a9-435b-85dd-6d7b63ea233a',
    '21de0cfe-af9f-42c2-95d4-aa3d852e7dad'],
  four: ['06aa70cc-a12a-4b1e-85cf-e54d44c19a3a', '077fa4bf-a99e-496b-b895-709afc614eec', '07a5a144-c635-4441-aedb-5c8e9da79aac',
    '07fdea90-1102-4419-a3af-b394cb29531b', '0c960166-75b0-4c1b-a3cc-2ddbd5a21703', '105f8f8e-ccd6-45a0-b22a-e314930bc13e',
    '116292ef-5947-4d6c-a479-630ebb8a1050', '15a73593-b13e-4a1b-99bb-51775cfdfc42', '249c5023-6106-447a-84ac-17eb4713731b',
    '25bb4c45-e40b-482c-b588-04db60b7e450'],
  none: ['00af1db1-7c86-4e9b-9383-1fbd06c3492d', '00b85ea4-8c5d-4302-b847-0a5de1d7dab2', '00c84257-800d-4032-9e64-e47eb97005f5',
    '0a038096-c14f-46ac-9155-980161ebc440', '0a0ef3d2-2560-4a93-904d-437189fffbf2', '0a272153-56c7-42d5-a17d-cd307a1cd6d4',
    '0a4a8907-1950-4e43-9a03-1740e78224ef', '0a4bc2da-f5b3-48cd-8f0d-c61dbd08ba53', '0a71a6e8-bb06-4ed0-a60b-c2a602fce261',
    '0a787971-9377-4888-803f-aef21863ef7d'],
  rock: ['026fd791-8f64-4fae-8cb0-0e01dc4362ce', '055f8be9-f7fd-4c7f-ad3f-7b404b6489c3', '09a619ab-cdf7-4a66-911f-347113f050f1',
    '0c6628ea-4a8c-49c9-b7cf-c30aef18dc3d', '0cc7ad09-ae5f-45a8-b264-4216176369b6', '10eacf4b-8aaf-46d9-be21-7fb8d8353005',
    '15cb4e8b-ba1d-46f1-8456-247016a599a4', '18e20af8-8fe1-48d4-bd0e-83fa9e2db88e', '1bed937b-7ae4-4070-891c-daf69415da41',
    '20e2164d-3473-4d42-8755-22cdbd4417ba'],
};
export const HANDS = Object.entries(HAND_FILES).flatMap(([cls, ids]) => ids.map((id) => `${HAND_DIR}/${cls}/${id}.jpg`));

// MNIST: the 10 digits of mnist_lstm/samples (the ai-edge-quantizer copies are
// the same files), plus three other digits. Too few to alternate: digits 0-4
// and resized9 calibrate; digits 5-9, coral's nine and tf-examples' zero
// evaluate (every evaluation digit is an image never seen in calibration).
const MNIST_DIR = `${D}/tflite-micro/tensorflow/lite/micro/examples/mnist_lstm/samples`;
const MNIST = {
  calib: [0, 1, 2, 3, 4].map((i) => `${MNIST_DIR}/sample${i}.png`).concat(`${MNIST_DIR}/resized9.png`),
  eval: [5, 6, 7, 8, 9].map((i) => `${MNIST_DIR}/sample${i}.png`).concat(
    `${D}/coral/mnist_nine.bmp`, `${D}/tf-examples/lite/examples/digit_classifier/android/app/src/androidTest/assets/zero.png`),
};

// PERSON96: the two 96x96 test images, one each side (person.bmp calibrates,
// no_person.bmp evaluates): with both on the evaluation side the calibration
// never sees a confident person logit and clips it.
const PERSON96_DIR = `${D}/tflite-micro/tensorflow/lite/micro/examples/person_detection/testdata`;

/** Alternating split of a sorted pool: even positions calibrate, odd ones evaluate. */
export const alternate = (pool) => ({ calib: pool.filter((_, i) => i % 2 === 0), eval: pool.filter((_, i) => i % 2 === 1) });

// Pixel scaling (pixels are 0..255): value = (pixel * scale - mean) / std.
const UNIT = { scale: 1 / 255 };                 // [0, 1]
const SIGNED = { mean: [127.5], std: [127.5] };  // [-1, 1]
const RAW = {};                                  // 0..255

const images = (split, flags, note, extra = {}) => ({ kind: 'qforge-data', flags, ...split, note, ...extra });

const TOYCAR_BIN = `${D}/mlperf-tiny/benchmark/reference_submissions/anomaly_detection/datasets/dcase01/normal_id_01_00000000_hist_librosa.bin`;
const HELLO = { kind: 'random', range: [0, 2 * Math.PI], calibSeed: 1, evalSeed: 2, calibN: 200, evalN: 100, note: 'x uniform in [0, 2π): 200 calibration draws (seed 1), 100 evaluation draws (seed 2)' };

const photoSplit = alternate(PHOTOS);
const peopleSplit = alternate(PEOPLE);
const handSplit = alternate(HANDS);
// The small-input classifiers (CIFAR proxy at 32x32, VWW at 96x96) are cheap
// to run: they get the hand photos as well, so that the SQNR of their softmax
// outputs, which a few samples dominate, rests on ~45 samples.
const allSplit = { calib: [...photoSplit.calib, ...handSplit.calib], eval: [...photoSplit.eval, ...handSplit.eval] };
const vwwSplit = { calib: [`${PERSON96_DIR}/person.bmp`, ...allSplit.calib], eval: [`${PERSON96_DIR}/no_person.bmp`, ...allSplit.eval] };

/** [{ id, model, starter, classifier, data, maxCalib, maxEval, twins, skip }] */
export const MODELS = [
  // ---- starter set (README section 7a) ----
  { id: 'hello_world_no_quant', model: 'models/tflite-micro/hello_world_no_quant.tflite', starter: true, data: HELLO,
    twins: [
      { path: 'twins/tflite-micro/hello_world__20210813.tflite', what: 'TFLite int8, int8 I/O', gate: 'int8' },
      { path: 'twins/tflite-micro/hello_world__20230217.tflite', what: 'TFLite int8, float I/O', gate: 'int8' },
    ] },
  { id: 'conv_fc_mnist', model: 'models/ai-edge-quantizer/conv_fc_mnist.tflite', starter: true, classifier: true,
    data: images(MNIST, UNIT, 'MNIST in [0,1]: digits 0-4 + resized9 calibrate (6), digits 5-9 + 2 other digits evaluate (7)'),
    twins: [
      { path: 'twins/ai-edge-quantizer/mnist_quantized.tflite', what: 'dynamic-range int8 weights (same weights)', gate: 'dynamic' },
      { path: 'twins/ai-edge-quantizer/partly_quantized_mnist.tflite', what: 'partly quantized (same weights)', gate: null },
    ] },
  { id: 'trained_lstm', model: 'models/tflite-micro/trained_lstm.tflite', starter: true, classifier: true,
    data: images(MNIST, UNIT, 'MNIST in [0,1] (rows as time steps), split as conv_fc_mnist'),
    twins: [{ path: 'twins/tflite-micro/trained_lstm_int8.tflite', what: 'TFLite int8 (int16 cell state), int8 I/O', gate: 'int8' }] },
  { id: 'vww_96', model: 'models/mlperf-tiny/vww_96_float.tflite', starter: true, classifier: true,
    data: images(vwwSplit, UNIT, 'PERSON96 + photos + hands in [0,1]: person.bmp + even photos + even hands calibrate, no_person.bmp + odd photos + odd hands evaluate'),
    twins: [{ path: 'twins/mlperf-tiny/vww_96_int8.tflite', what: 'MLPerf Tiny int8, int8 I/O', gate: 'int8' }] },
  { id: 'pretrainedResnet', model: 'models/mlperf-tiny/pretrainedResnet.tflite', starter: true, classifier: true,
    data: images(allSplit, RAW, 'CIFAR proxy: photos + hands at 32x32, 0..255; even photos/hands calibrate, odd evaluate'),
    twins: [{ path: 'twins/mlperf-tiny/pretrainedResnet_quant.tflite', what: 'MLPerf Tiny int8, int8 I/O', gate: 'int8' }] },
  { id: 'model_ToyCar', model: 'models/mlperf-tiny/model_ToyCar.tflite', starter: true,
    data: { kind: 'qforge-data', flags: {}, pool: [TOYCAR_BIN], split: 'halves', note: 'the 40 real log-mel vectors: 1-20 calibrate, 21-40 evaluate (consecutive vectors overlap in time, so no interleaving)' },
    twins: [
      { path: 'twins/mlperf-tiny/ad01_int8.tflite', what: 'TF 2.3 int8, int8 I/O', gate: 'int8' },
      { path: 'twins/mlperf-tiny/model_ToyCar_quant_fullint.tflite', what: 'TF 2.3 int8, float I/O', gate: 'int8' },
      { path: 'twins/mlperf-tiny/model_ToyCar_quant.tflite', what: 'TF 2.3 dynamic range', gate: 'dynamic' },
    ] },
  { id: 'mobilenet_v1_0.25_128', model: 'models/tflite2onnx/mobilenet_v1_0.25_128.tflite', starter: true, classifier: true,
    data: images(photoSplit, SIGNED, 'IMAGENET-style photos in [-1,1]; even photos calibrate, odd evaluate'),
    twins: [{ path: 'twins/tflite2onnx/mobilenet_v1_0.25_128_quant.tflite', what: 'QAT uint8 (close weights, not the same)', gate: null }] },
  { id: 'face_detection_short_range', model: 'models/mediapipe/face_detection_short_range.tflite', starter: true,
    data: images(peopleSplit, SIGNED, 'FACES/people in [-1,1]; even calibrate, odd evaluate'), maxEval: 10 },

  // ---- the rest of section 1 (float input, real data) ----
  { id: 'vww_96_14blk', model: 'models/mlperf-tiny/vww_96_14blk_836k_float.tflite', classifier: true,
    data: images(vwwSplit, UNIT, 'as vww_96'),
    twins: [{ path: 'twins/mlperf-tiny/vww_96_14blk_836k_int8.tflite', what: 'TFLite int8, int8 I/O', gate: 'int8' }] },
  { id: 'trainedResnet_6blk', model: 'models/mlperf-tiny/trainedResnet_6blk_750k_float.tflite', classifier: true,
    data: images(allSplit, RAW, 'as pretrainedResnet'), maxEval: 32, // int16x8 runs in LiteRT's reference kernels: ~1.5 s a sample
    twins: [{ path: 'twins/mlperf-tiny/trainedResnet_6blk_750k_int8.tflite', what: 'TFLite int8, int8 I/O', gate: 'int8' }] },
  { id: 'sine_float', model: 'models/tflite-micro/sine_float.tflite', data: HELLO },
  { id: 'mobilenet_v1_0.25_224', model: 'models/tflite-support/mobilenet_v1_0.25_224_1_metadata_1.tflite', classifier: true,
    data: images(photoSplit, SIGNED, 'as mobilenet_v1_0.25_128, at 224x224'), maxCalib: 16, maxEval: 12,
    twins: [{ path: 'twins/tflite-support/mobilenet_v1_0.25_224_quant.tflite', what: 'QAT uint8 (close weights, not the same)', gate: null }] },
  { id: 'face_detection_front', model: 'models/mediapipe/face_detection_front.tflite',
    data: images(peopleSplit, SIGNED, 'FACES/people in [-1,1]'), maxEval: 8 },
  { id: 'face_detection_back', model: 'models/mediapipe/face_detection_back.tflite',
    data: images(peopleSplit, SIGNED, 'FACES/people in [-1,1], at 256x256'), maxCalib: 8, maxEval: 4 },
  { id: 'face_detection_full_range', model: 'models/mediapipe/face_detection_full_range.tflite',
    data: images(peopleSplit, SIGNED, 'FACES/people in [-1,1], at 192x192'), maxCalib: 8, maxEval: 4 },
  { id: 'face_landmark_2020', model: 'models/mediapipe/face_landmark__20201209.tflite',
    data: images(peopleSplit, UNIT, 'FACES/people in [0,1] (whole photos, not face crops)'), maxCalib: 8, maxEval: 4 },
  { id: 'face_landmark_2021', model: 'models/mediapipe/face_landmark__20211006.tflite',
    data: images(peopleSplit, UNIT, 'FACES/people in [0,1] (whole photos, not face crops)'), maxCalib: 8, maxEval: 4 },
  { id: 'palm_detection', model: 'models/mediapipe/palm_detection.tflite',
    data: images(handSplit, SIGNED, 'HANDS in [-1,1]; alternate photos (5 per class each side)'), maxCalib: 12, maxEval: 6 },
  { id: 'palm_detection_full', model: 'models/mediapipe/palm_detection_full.tflite',
    data: images(handSplit, UNIT, 'HANDS in [0,1]'), maxCalib: 8, maxEval: 4 },
  { id: 'hand_landmark_2020', model: 'models/mediapipe/hand_landmark__20201104.tflite',
    data: images(handSplit, UNIT, 'HANDS in [0,1] (whole photos)'), maxCalib: 8, maxEval: 4 },
  { id: 'hand_recrop', model: 'models/mediapipe/hand_recrop.tflite',
    data: images(handSplit, UNIT, 'HANDS in [0,1]'), maxCalib: 12, maxEval: 6 },
  { id: 'pose_detection', model: 'models/mediapipe/pose_detection__20201209.tflite',
    data: images(peopleSplit, SIGNED, 'POSE/people in [-1,1]'), maxEval: 8 },
  { id: 'pose_landmark_lite_2021_06', model: 'models/mediapipe/pose_landmark_lite__20210624.tflite',
    data: images(peopleSplit, UNIT, 'POSE/people in [0,1]'), maxCalib: 8, maxEval: 4 },
  { id: 'pose_landmark_lite_2021_08', model: 'models/mediapipe/pose_landmark_lite__20210818.tflite',
    data: images(peopleSplit, UNIT, 'POSE/people in [0,1]'), maxCalib: 8, maxEval: 4 },
  { id: 'face_detection_full_range_sparse', model: 'models/mediapipe/face_detection_full_range_sparse.tflite',
    data: images(peopleSplit, SIGNED, 'FACES/people in [-1,1], at 192x192'), maxCalib: 8, maxEval: 4 },
  { id: 'hand_landmark_3d', model: 'models/mediapipe/hand_landmark_3d.tflite',
    data: images(handSplit, UNIT, 'HANDS in [0,1] (whole photos)'), maxCalib: 8, maxEval: 4 },
  { id: 'hand_landmark_2020_05', model: 'models/mediapipe/hand_landmark__20200521.tflite',
    data: images(handSplit, UNIT, 'HANDS in [0,1] (whole photos)'), maxCalib: 8, maxEval: 4 },
  { id: 'hand_landmark_sparse_2021_02', model: 'models/mediapipe/hand_landmark_sparse__20210227.tflite',
    data: images(handSplit, UNIT, 'HANDS in [0,1] (whole photos)'), maxCalib: 8, maxEval: 4 },
  { id: 'hand_landmark_sparse_2021_10', model: 'models/mediapipe/hand_landmark_sparse__20211006.tflite',
    data: images(handSplit, UNIT, 'HANDS in [0,1] (whole photos)'), maxCalib: 8, maxEval: 4 },
  { id: 'selfie_segmentation_landscape', model: 'models/mediapipe/selfie_segmentation_landscape.tflite',
    data: images(peopleSplit, UNIT, 'PORTRAIT/people in [0,1]'), maxCalib: 8, maxEval: 4 },

  // ---- section 1 models without data that fits, or that no runtime here runs ----
  ...[
    ['magic_wand', 'models/tflite-micro/magic_wand.tflite', 'no accelerometer data in the corpus'],
    ['custom_gesture_classifier', 'models/mediapipe/custom_gesture_classifier.tflite', 'no gesture embeddings in the corpus (the embedder model is not in it)'],
    ['knift_float', 'models/mediapipe/knift_float.tflite', 'batch-200 patch input; no patch extraction recipe (the corpus README only says "cut from any photo")'],
    ['planestrike_tf', 'models/tf-examples/planestrike_tf.tflite', 'synthetic board states only, and the board encoding is not documented in the corpus'],
    ['hair_segmentation', 'models/mediapipe/hair_segmentation.tflite', '4-channel input (RGB and the previous frame\'s mask) and MediaPipe custom ops: no data recipe here; bench/mixed/mask_target.sh quantizes and measures it (LiteRT 2.5.3 runs it)'],
    ['2022IDDetector', 'models/tflite-support/2022IDDetectorWithMetadata.tflite', 'Flex ops: neither runtime here runs it'],
    ['frontend_sl_v1', 'models/litert/frontend_sl_v1.tflite', 'audio front end (RFFT2D/COMPLEX_ABS/LOG, bool mask input): a signal-processing graph, not a network to quantize'],
    ['movie_review', 'models/tflite-support/movie_review.tflite', 'int32 token-id input, no token data in the corpus'],
    ['nl_classifier', 'models/tflite-support/test_model_nl_classifier_with_associated_label_builtin_ops.tflite', 'int32 token-id input, no token data in the corpus'],
    ['regex_one_embedding', 'models/tflite-support/regex_one_embedding_with_metadata.tflite', 'int32 token-id input, no token data in the corpus'],
    ['regex_two_embeddings', 'models/tflite-support/regex_two_embeddings_with_metadata.tflite', 'int32 token-id input, no token data in the corpus'],
    ['regex_searcher', 'models/tflite-support/regex_searcher.tflite', 'int32 token-id input, no token data in the corpus'],
    ['recommendation_cnn_i10i32o100', 'models/litert/recommendation_cnn_i10i32o100.tflite', 'int32 item-id inputs, synthetic ids only'],
    ['recommendation_cnn_i10o100', 'models/litert/recommendation_cnn_i10o100.tflite', 'int32 item-id input, synthetic ids only'],
    ['recommendation_rnn_i10o100', 'models/litert/recommendation_rnn_i10o100.tflite', 'int32 item-id input, synthetic ids only'],
    ['model_history10_top100', 'models/tf-examples/model_history10_top100.tflite', 'int32 item-id input, synthetic ids only'],
    ['planestrike_tf_agents', 'models/tf-examples/planestrike_tf_agents.tflite', 'Flex op FlexMultinomial'],
    ['planestrike_tf_agents_2021', 'models/tf-examples/planestrike_tf_agents__20210826.tflite', 'Flex op FlexMultinomial'],
    ['sentencepiece_tokenizer', 'models/tflite-support/sentencepiece_tokenizer_flex_op.tflite', 'string input, Flex ops, nothing to quantize'],
    ['wiki40b_lm_en', 'models/tflite-support/wiki40b-lm-en.tflite', 'string input, Flex ops, nothing to quantize'],
  ].map(([id, model, skip]) => ({ id, model, skip })),
];
