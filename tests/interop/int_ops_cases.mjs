// The cases of int_ops_litert.mjs: one (or two) corpus float models per op
// kind that qforge's quantizer emits (quantizer/op_quant_spec.cc), all
// single-op or few-op unit graphs (corpus README section 1: models/glow,
// models/litert, models/ai-edge-quantizer). `range`: the float input range
// (default [-1, 1)); `schemes`: limit to some schemes; `testdata`: the model
// is in the repository's testdata/ (ops no corpus model uses: testdata/ops/,
// written by tests/tools/make_op_models.cc), not in the corpus.
export const CASES = [
  // Weighted ops.
  { op: 'CONV_2D', model: 'models/glow/conv2d_same.tflite' },
  { op: 'CONV_2D', model: 'models/litert/single_conv_no_bias.tflite' },
  { op: 'DEPTHWISE_CONV_2D', model: 'models/glow/depthwise_conv2d_c2_m2.tflite' },
  { op: 'DEPTHWISE_CONV_2D', model: 'models/ai-edge-quantizer/single_depthwise_conv2d_bias.tflite' },
  { op: 'FULLY_CONNECTED', model: 'models/glow/fully_connected.tflite' },
  { op: 'FULLY_CONNECTED', model: 'models/ai-edge-quantizer/single_fc_bias.tflite' },
  { op: 'TRANSPOSE_CONV', model: 'models/ai-edge-quantizer/single_conv2d_transpose_bias.tflite' },
  { op: 'BATCH_MATMUL', model: 'models/ai-edge-quantizer/bmm.tflite' },
  { op: 'BATCH_MATMUL', model: 'models/ai-edge-quantizer/bmm_constant_input.tflite' },
  // Arithmetic.
  { op: 'ADD', model: 'models/glow/add_broadcast.tflite' },
  { op: 'SUB', model: 'models/glow/sub.tflite' },
  { op: 'MUL', model: 'models/glow/mul_broadcast.tflite' },
  { op: 'MEAN', model: 'models/glow/mean_keep_dims.tflite' },
  { op: 'MEAN', model: 'models/ai-edge-quantizer/single_mean.tflite' },
  { op: 'MAXIMUM', model: 'models/glow/max_broadcast.tflite' },
  { op: 'MINIMUM', model: 'models/glow/min.tflite' },
  { op: 'RSQRT', model: 'models/glow/rsqrt.tflite', range: [0.05, 4] },
  // Activations.
  { op: 'RELU', model: 'models/glow/relu.tflite' },
  { op: 'RELU6', model: 'models/glow/relu6.tflite', range: [-3, 8] },
  { op: 'RELU_N1_TO_1', model: 'models/glow/relu_n1to1.tflite', range: [-2, 2] },
  { op: 'LEAKY_RELU', model: 'models/glow/leaky_relu.tflite' },
  { op: 'PRELU', model: 'models/glow/prelu.tflite' },
  { op: 'HARD_SWISH', model: 'models/glow/hardSwish.tflite', range: [-4, 4] },
  { op: 'LOGISTIC', model: 'models/glow/sigmoid.tflite', range: [-6, 6] },
  { op: 'TANH', model: 'models/glow/tanh.tflite', range: [-3, 3] },
  { op: 'SOFTMAX', model: 'models/glow/softmax.tflite', range: [-4, 4] },
  { op: 'SOFTMAX', model: 'models/litert/single_softmax_min_minus_5_max_plus_5.tflite', range: [-5, 5] },
  // Pooling.
  { op: 'AVERAGE_POOL_2D', model: 'models/glow/avgpool2d_same.tflite' },
  { op: 'MAX_POOL_2D', model: 'models/glow/maxpool2d_same.tflite' },
  // Resampling.
  { op: 'RESIZE_BILINEAR', model: 'models/glow/resize_bilinear.tflite' },
  { op: 'RESIZE_BILINEAR', model: 'models/ai-edge-quantizer/single_resize_bilinear.tflite' },
  { op: 'RESIZE_NEAREST_NEIGHBOR', model: 'models/glow/resize_nearest.tflite' },
  // Data movement.
  { op: 'CONCATENATION', model: 'models/glow/concat.tflite' },
  { op: 'PACK', model: 'models/glow/pack.tflite' },
  { op: 'UNPACK', model: 'models/glow/unpack.tflite' },
  { op: 'SPLIT', model: 'models/glow/split.tflite' },
  { op: 'RESHAPE', model: 'models/glow/reshape.tflite' },
  { op: 'TRANSPOSE', model: 'models/glow/transpose.tflite' },
  { op: 'PAD', model: 'models/glow/pad.tflite' },
  { op: 'SLICE', model: 'models/glow/slice.tflite' },
  { op: 'STRIDED_SLICE', model: 'models/glow/strided_slice_test0.tflite' },
  { op: 'GATHER', model: 'models/glow/gather_axis0.tflite' },
  { op: 'SPACE_TO_DEPTH', model: 'models/glow/space_to_depth.tflite' },
  { op: 'DEPTH_TO_SPACE', model: 'models/glow/depth_to_space.tflite' },
  { op: 'MATRIX_SET_DIAG', model: 'ops/matrix_set_diag.tflite', testdata: true },
  { op: 'MATRIX_SET_DIAG', model: 'ops/matrix_set_diag_const.tflite', testdata: true },
];
