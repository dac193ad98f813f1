#!/usr/bin/env python3
"""Writes the models of this folder (tests/cmd/bad_input_test.cc).

Each NAME.tflite is a bundled model (testdata/models/BASE.tflite, NAME =
BASE__DEFECT) with one defect that the reader's validation cannot see: a
tensor no op writes, or shapes/options that only a kernel's prepare can
judge. `qforge inspect` accepts each; `qforge run` must refuse each with one
error line (exit 1 or 2), never crash. inputs/BASE[.INPUT].npy is the data
the test runs them on. Needs flatc (Debian package flatbuffers-compiler) to
turn the model into JSON and back; run with python3 from anywhere.
"""
import json, os, struct, subprocess, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..')
SCHEMA = os.path.join(ROOT, 'formats', 'schema', 'tflite.fbs')
MODELS = os.path.join(ROOT, 'testdata', 'models')


def to_json(base):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(['flatc', '--json', '--strict-json', '--raw-binary',
                        '-o', d, SCHEMA, '--',
                        os.path.join(MODELS, base + '.tflite')], check=True)
        with open(os.path.join(d, base + '.json')) as f:
            return json.load(f)


def write_model(name, j):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name + '.json')
        with open(path, 'w') as f:
            json.dump(j, f)
        subprocess.run(['flatc', '--binary', '-o', d, SCHEMA, path],
                       check=True)
        out = [f for f in os.listdir(d) if not f.endswith('.json')]
        with open(os.path.join(d, out[0]), 'rb') as f:
            data = f.read()
    with open(os.path.join(HERE, name + '.tflite'), 'wb') as f:
        f.write(data)


def write_npy(name, shape, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        ''.join('%d, ' % d for d in shape))
    header += ' ' * (63 - (len(header) + 10) % 64) + '\n'
    with open(os.path.join(HERE, 'inputs', name + '.npy'), 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)))
        f.write(header.encode())
        f.write(struct.pack('<%df' % len(values), *values))


def new_tensor(sg, like, name):
    t = json.loads(json.dumps(sg['tensors'][like]))
    t['name'] = name
    t['buffer'] = 0
    sg['tensors'].append(t)
    return len(sg['tensors']) - 1


cases = {}


def case(base, name):
    def register(fn):
        cases[base + '__' + name] = (base, fn)
        return fn
    return register


# add: out = input1 + input2, both float32[1, 10].
@case('add', 'operand_never_written')
def _(j):
    sg = j['subgraphs'][0]
    sg['operators'][0]['inputs'][1] = new_tensor(sg, 2, 'nobody_writes_me')


# conv_fc_mnist: CONV_2D(0, 5, 6) -> 7, AVERAGE_POOL_2D -> 8,
# RESHAPE(8, 4) -> 9, FULLY_CONNECTED(9, 2, 3) -> 10,
# FULLY_CONNECTED(10, 1) -> 11, SOFTMAX -> 12.
@case('conv_fc_mnist', 'activation_never_written')
def _(j):
    sg = j['subgraphs'][0]
    sg['operators'][3]['inputs'][0] = new_tensor(sg, 9, 'nobody_writes_me')


@case('conv_fc_mnist', 'filter_channels_mismatch')
def _(j):  # same 72 floats as [4, 3, 3, 2]: 2 input channels, the input has 1
    j['subgraphs'][0]['tensors'][5]['shape'] = [4, 3, 3, 2]


@case('conv_fc_mnist', 'conv_bias_size_mismatch')
def _(j):  # 4 of the 8 bias values: a bias has one per output channel
    j['subgraphs'][0]['tensors'][6]['shape'] = [4]
    j['buffers'][7]['data'] = j['buffers'][7]['data'][:16]


@case('conv_fc_mnist', 'conv_stride_zero')
def _(j):
    j['subgraphs'][0]['operators'][0]['builtin_options']['stride_w'] = 0


@case('conv_fc_mnist', 'pool_window_larger_than_input')
def _(j):
    o = j['subgraphs'][0]['operators'][1]['builtin_options']
    o['filter_height'] = o['filter_width'] = 1000


@case('conv_fc_mnist', 'reshape_to_wrong_size')
def _(j):  # new shape [1, 1000]: 1568 values do not fit
    j['buffers'][5]['data'] = list(struct.pack('<2i', 1, 1000))


@case('conv_fc_mnist', 'fc_weights_mismatch')
def _(j):  # the same 50176 floats as [64, 784]: 784 != the 1568 inputs
    j['subgraphs'][0]['tensors'][2]['shape'] = [64, 784]


@case('conv_fc_mnist', 'fc_bias_size_mismatch')
def _(j):  # 16 of the 32 bias values
    j['subgraphs'][0]['tensors'][3]['shape'] = [16]
    j['buffers'][4]['data'] = j['buffers'][4]['data'][:64]


@case('add', 'output_never_written')
def _(j):  # the subgraph's output is a tensor no op writes
    sg = j['subgraphs'][0]
    sg['outputs'] = [new_tensor(sg, 0, 'nobody_writes_me')]


@case('conv_fc_mnist', 'conv_dilation_zero')
def _(j):
    j['subgraphs'][0]['operators'][0]['builtin_options']['dilation_h_factor'] = 0


@case('conv_fc_mnist', 'conv_stride_negative')
def _(j):
    j['subgraphs'][0]['operators'][0]['builtin_options']['stride_h'] = -2


@case('conv_fc_mnist', 'conv_weights_rank3')
def _(j):  # the same 72 floats as [4, 3, 6]
    j['subgraphs'][0]['tensors'][5]['shape'] = [4, 3, 6]


@case('conv_fc_mnist', 'conv_dilation_negative')
def _(j):
    j['subgraphs'][0]['operators'][0]['builtin_options']['dilation_w_factor'] = -3


@case('conv_fc_mnist', 'conv_weights_never_written')
def _(j):  # weights that are neither constant nor computed
    sg = j['subgraphs'][0]
    sg['operators'][0]['inputs'][1] = new_tensor(sg, 5, 'nobody_writes_me')


@case('conv_fc_mnist', 'pool_stride_zero')
def _(j):
    j['subgraphs'][0]['operators'][1]['builtin_options']['stride_h'] = 0


@case('conv_fc_mnist', 'pool_filter_zero')
def _(j):
    j['subgraphs'][0]['operators'][1]['builtin_options']['filter_width'] = 0


@case('conv_fc_mnist', 'pool_filter_negative')
def _(j):
    j['subgraphs'][0]['operators'][1]['builtin_options']['filter_height'] = -4


@case('conv_fc_mnist', 'pool_stride_negative')
def _(j):
    j['subgraphs'][0]['operators'][1]['builtin_options']['stride_w'] = -1


@case('conv_fc_mnist', 'reshape_two_unknown_dims')
def _(j):  # new shape [-1, -1]: at most one dim may be inferred
    j['buffers'][5]['data'] = list(struct.pack('<2i', -1, -1))


@case('conv_fc_mnist', 'reshape_not_divisible')
def _(j):  # new shape [3, -1]: 1568 values are not a multiple of 3
    j['buffers'][5]['data'] = list(struct.pack('<2i', 3, -1))


@case('conv_fc_mnist', 'reshape_shape_float')
def _(j):  # the new-shape tensor declared float32 (same 8 bytes)
    j['subgraphs'][0]['tensors'][4]['type'] = 'FLOAT32'


@case('conv_fc_mnist', 'fc_weights_rank1')
def _(j):  # the same 50176 floats as one vector
    j['subgraphs'][0]['tensors'][2]['shape'] = [50176]


@case('conv_fc_mnist', 'fc_weights_rank3')
def _(j):  # the same 50176 floats as [32, 2, 784]
    j['subgraphs'][0]['tensors'][2]['shape'] = [32, 2, 784]


@case('conv_fc_mnist', 'fc_weights_int8_unquantized')
def _(j):  # the weights' bytes as int8 [128, 1568] with no scale
    t = j['subgraphs'][0]['tensors'][2]
    t['type'] = 'INT8'
    t['shape'] = [128, 1568]
    t.pop('quantization', None)


@case('conv_fc_mnist', 'fc_weights_never_written')
def _(j):
    sg = j['subgraphs'][0]
    sg['operators'][3]['inputs'][1] = new_tensor(sg, 2, 'nobody_writes_me')


@case('conv_fc_mnist', 'softmax_input_never_written')
def _(j):
    sg = j['subgraphs'][0]
    sg['operators'][5]['inputs'][0] = new_tensor(sg, 11, 'nobody_writes_me')


@case('conv_fc_mnist', 'second_fc_input_never_written')
def _(j):
    sg = j['subgraphs'][0]
    sg['operators'][4]['inputs'][0] = new_tensor(sg, 10, 'nobody_writes_me')


@case('conv_fc_mnist', 'pool_input_never_written')
def _(j):
    sg = j['subgraphs'][0]
    sg['operators'][1]['inputs'][0] = new_tensor(sg, 7, 'nobody_writes_me')


@case('add', 'output_is_an_unwritten_constant_slot')
def _(j):  # output 0 names a tensor with an empty buffer no op writes
    sg = j['subgraphs'][0]
    t = new_tensor(sg, 2, 'empty_constant')
    sg['outputs'] = [sg['outputs'][0], t]


for f in os.listdir(HERE):
    if f.endswith('.tflite'):
        os.remove(os.path.join(HERE, f))
for name, (base, fn) in sorted(cases.items()):
    j = to_json(base)
    fn(j)
    write_model(name, j)
write_npy('add.input1', [1, 10], [0.5 * i - 2 for i in range(10)])
write_npy('add.input2', [1, 10], [1.5 - 0.25 * i for i in range(10)])
write_npy('conv_fc_mnist', [1, 28, 28, 1],
          [((i * 37) % 256) / 255.0 for i in range(28 * 28)])
print(len(cases), "models")
