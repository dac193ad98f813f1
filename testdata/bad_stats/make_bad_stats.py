#!/usr/bin/env python3
"""Writes the bad statistics files of this folder (tests/cmd/bad_input_test.cc).

Each is testdata/stats/add.json (qforge calibrate of testdata/models/add.tflite,
--histogram-stride 1) or one of its shards with one defect, named
  file_<what>.json   refused when read: `quantize --stats` and `merge-stats`
  model_<what>.json  a well-formed file that does not fit add.tflite:
                     refused by `quantize --stats` only
Run with python3 from anywhere; it rewrites every file it owns.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
STATS = os.path.join(HERE, '..', 'stats')

def load(name):
    with open(os.path.join(STATS, name)) as f:
        return json.load(f)

BASE = load('add.json')
SHARD0 = load('add.shard0of2.json')

cases = {}  # name -> text

def edit(name, fn, base=BASE):
    j = json.loads(json.dumps(base))
    fn(j)
    cases[name] = json.dumps(j)

def text(name, t):
    cases[name] = t

def setf(path, value):
    def fn(j):
        obj = j
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
    return fn

def delf(path):
    def fn(j):
        obj = j
        for k in path[:-1]:
            obj = obj[k]
        del obj[path[-1]]
    return fn

good = json.dumps(BASE)
# Not JSON, or not an object.
text('file_empty', '')
text('file_not_json', 'hello, world\n')
text('file_truncated', good[:len(good) // 2])
text('file_top_array', '[]')
text('file_top_string', '"qforge-stats"')
text('file_nan_literal', good.replace('"min": -3.0', '"min": NaN'))
text('file_infinity_literal', good.replace('"max": 2.5', '"max": Infinity'))
text('file_invalid_utf8_name', good.replace('"input1"', '"in\xffput1"'))
# 5000 nested arrays as the first histogram key: parsed (the parser does
# not recurse), then refused as a key.
text('file_deep_nesting', good.replace('"histogram": [0, 3, 4000', '"histogram": [' + '[' * 5000 + ']' * 5000 + ', 3, 4000', 1))
# Header fields: wrong types and values.
edit('file_format_number', setf(['format'], 1))
edit('file_format_other', setf(['format'], 'other-stats'))
edit('file_format_missing', delf(['format']))
edit('file_version_string', setf(['version'], '1'))
edit('file_version_3', setf(['version'], 3))
edit('file_version_negative', setf(['version'], -1))
edit('file_version_fraction', setf(['version'], 1.5))
edit('file_grid_number', setf(['histogram_grid'], 1))
edit('file_grid_other', setf(['histogram_grid'], 'float32-top15'))
edit('file_fingerprint_number', setf(['fingerprint'], 1))
edit('file_fingerprint_missing', delf(['fingerprint']))
edit('file_model_hash_number', setf(['fingerprint', 'model_hash'], 123))
edit('file_model_hash_not_hex', setf(['fingerprint', 'model_hash'], 'zzzzzzzzzzzzzzzz'))
edit('file_model_hash_short', setf(['fingerprint', 'model_hash'], '8cf2ff50'))
edit('file_data_hash_null', setf(['fingerprint', 'data_hash'], None))
edit('file_tool_version_object', setf(['fingerprint', 'tool_version'], {}))
edit('file_tool_version_empty', setf(['fingerprint', 'tool_version'], ''))
edit('file_total_samples_negative', setf(['fingerprint', 'total_samples'], -1))
edit('file_total_samples_string', setf(['fingerprint', 'total_samples'], '4'))
edit('file_total_samples_float', setf(['fingerprint', 'total_samples'], 1e30))
edit('file_total_samples_zero', setf(['fingerprint', 'total_samples'], 0))
edit('file_total_samples_huge', setf(['fingerprint', 'total_samples'], 18446744073709551615))
edit('file_stride_zero', setf(['fingerprint', 'histogram_stride'], 0))
edit('file_stride_huge', setf(['fingerprint', 'histogram_stride'], 5000))
edit('file_shard_count_zero', setf(['fingerprint', 'shard_count'], 0))
edit('file_shard_count_negative', setf(['fingerprint', 'shard_count'], -2))
edit('file_shards_string', setf(['fingerprint', 'shards'], '0'), SHARD0)
edit('file_shard_out_of_range', setf(['fingerprint', 'shards'], [5]), SHARD0)
edit('file_shard_repeated', setf(['fingerprint', 'shards'], [0, 0]), SHARD0)
edit('file_shards_with_one_shard', setf(['fingerprint', 'shards'], [0]))
edit('file_shards_empty_when_sharded', setf(['fingerprint', 'shards'], []), SHARD0)
edit('file_samples_negative', setf(['samples'], -3))
edit('file_samples_above_total', setf(['samples'], 9))
edit('file_samples_not_total', setf(['samples'], 3))
# The tensor table.
edit('file_tensors_object', setf(['tensors'], {}))
edit('file_tensors_empty', setf(['tensors'], []))
edit('file_tensors_missing', delf(['tensors']))
edit('file_tensor_number', setf(['tensors', 1], 5))
edit('file_tensor_subgraph_negative', setf(['tensors', 0, 'subgraph'], -1))
edit('file_tensor_index_string', setf(['tensors', 0, 'tensor'], '3'))
edit('file_tensor_index_huge', setf(['tensors', 0, 'tensor'], 2 ** 40))
edit('file_tensor_name_number', setf(['tensors', 0, 'name'], 7))
edit('file_tensor_repeated', lambda j: j['tensors'].append(j['tensors'][0]))
# Counts and ranges.
edit('file_count_negative', setf(['tensors', 0, 'count'], -5))
edit('file_count_fraction', setf(['tensors', 0, 'count'], 1.5))
edit('file_count_huge', setf(['tensors', 0, 'count'], 2 ** 60))
edit('file_nan_huge', setf(['tensors', 0, 'nan'], 18446744073709551615))
edit('file_pos_inf_negative', setf(['tensors', 0, 'pos_inf'], -1))
edit('file_neg_inf_bool', setf(['tensors', 0, 'neg_inf'], True))
edit('file_min_string', setf(['tensors', 0, 'min'], '0'))
edit('file_min_above_max', setf(['tensors', 0, 'min'], 3.0))
edit('file_max_beyond_float', setf(['tensors', 0, 'max'], 1e39))
edit('file_min_overflow', setf(['tensors', 0, 'min'], -1e300))
text('file_max_overflow_literal', good.replace('"max": 2.5', '"max": 1e400'))
edit('file_max_missing', delf(['tensors', 1, 'max']))
# Histograms.
edit('file_histogram_odd', lambda j: j['tensors'][0]['histogram'].pop())
edit('file_histogram_string', setf(['tensors', 0, 'histogram'], 'abc'))
edit('file_histogram_key_out_of_range', setf(['tensors', 2, 'histogram'], [16384, 40]))
edit('file_histogram_key_negative', setf(['tensors', 2, 'histogram'], [-1, 40]))
edit('file_histogram_key_nan_bucket', setf(['tensors', 2, 'histogram'], [8160, 40]))
edit('file_histogram_keys_descending', setf(['tensors', 2, 'histogram'], [4032, 20, 0, 20]))
edit('file_histogram_count_zero', setf(['tensors', 2, 'histogram'], [0, 0, 4032, 40]))
edit('file_histogram_count_negative', setf(['tensors', 2, 'histogram'], [0, -6, 4032, 46]))
edit('file_histogram_sum_short', setf(['tensors', 2, 'histogram'], [0, 6, 4032, 6]))
edit('file_histogram_sum_long', setf(['tensors', 2, 'histogram'], [0, 6, 4032, 600]))
edit('file_histogram_outside_range', setf(['tensors', 2, 'histogram'], [0, 20, 4400, 20]))
# Well-formed, but not statistics of add.tflite (quantize refuses them).
edit('model_tensor_out_of_range', setf(['tensors', 2, 'tensor'], 999))
edit('model_subgraph_out_of_range', setf(['tensors', 2, 'subgraph'], 5))
edit('model_name_mismatch', setf(['tensors', 1, 'name'], 'not_input1'))
edit('model_another_model', setf(['fingerprint', 'model_hash'], '0123456789abcdef'))
cases['model_one_shard_of_two'] = json.dumps(SHARD0)


# What each error must say right after "FILE: " (the field it names, then
# ':'), and optionally a further phrase the line must hold; checked by
# tests/cmd/bad_input_test.cc from expected.tsv. JSON syntax errors can only
# name a position; those files expect the text the parser last read.
T0, T1, T2 = "tensors[0] 'Add'", "tensors[1] 'input1'", "tensors[2] 'input2'"
NOT_JSON = 'not a JSON stats file'
EXPECT = {
    'file_empty': (NOT_JSON, 'line 1, column 1'),
    'file_not_json': (NOT_JSON, "last read: 'h'"),
    'file_truncated': (NOT_JSON, 'unexpected end of input'),
    'file_top_array': ('the file', 'expected an object, got an array'),
    'file_top_string': ('the file', 'expected an object, got a string'),
    'file_nan_literal': (NOT_JSON, """last read: '"min": N'"""),
    'file_infinity_literal': (NOT_JSON, """last read: '"max": I'"""),
    # The raw byte is shown escaped: main() escapes every error line.
    'file_invalid_utf8_name': (NOT_JSON, "ill-formed UTF-8 byte; last read: '\"in\\xff'"),
    'file_deep_nesting': (T0 + '.histogram[0]', 'got an array'),
    'file_format_number': ('format', 'expected a string'),
    'file_format_other': ('format', 'not a qforge stats file'),
    'file_format_missing': ('format', 'missing'),
    'file_version_string': ('version', 'expected an integer'),
    'file_version_3': ('version', 'reads versions 1 to 2'),
    'file_version_negative': ('version', 'out of range'),
    'file_version_fraction': ('version', 'non-integer 1.5'),
    'file_grid_number': ('histogram_grid', 'expected a string'),
    'file_grid_other': ('histogram_grid', 'unknown'),
    'file_fingerprint_number': ('fingerprint', 'expected an object'),
    'file_fingerprint_missing': ('fingerprint', 'missing'),
    'file_model_hash_number': ('fingerprint.model_hash', 'expected a string'),
    'file_model_hash_not_hex': ('fingerprint.model_hash', 'hex'),
    'file_model_hash_short': ('fingerprint.model_hash', 'hex'),
    'file_data_hash_null': ('fingerprint.data_hash', 'got a null'),
    'file_tool_version_object': ('fingerprint.tool_version', 'got an object'),
    'file_tool_version_empty': ('fingerprint.tool_version', 'empty'),
    'file_total_samples_negative': ('fingerprint.total_samples', 'negative'),
    'file_total_samples_string': ('fingerprint.total_samples', 'got a string'),
    'file_total_samples_float': ('fingerprint.total_samples', 'non-integer'),
    'file_total_samples_zero': ('fingerprint.total_samples', 'at least one'),
    'file_total_samples_huge': ('fingerprint.total_samples', 'out of range'),
    'file_stride_zero': ('fingerprint.histogram_stride', 'out of range'),
    'file_stride_huge': ('fingerprint.histogram_stride', 'out of range'),
    'file_shard_count_zero': ('fingerprint.shard_count', 'out of range'),
    'file_shard_count_negative': ('fingerprint.shard_count', 'out of range'),
    'file_shards_string': ('fingerprint.shards', 'expected an array'),
    'file_shard_out_of_range': ('fingerprint.shards[0]', 'not a shard of 2'),
    'file_shard_repeated': ('fingerprint.shards[1]', 'repeats'),
    'file_shards_with_one_shard': ('fingerprint.shards', 'shard_count is 1'),
    'file_shards_empty_when_sharded': ('fingerprint.shards', 'empty'),
    'file_samples_negative': ('samples', 'negative'),
    'file_samples_above_total': ('samples', 'out of range [0, 4]'),
    'file_samples_not_total': ('samples', 'total_samples (4)'),
    'file_tensors_object': ('tensors', 'expected an array'),
    'file_tensors_empty': ('tensors', 'empty'),
    'file_tensors_missing': ('tensors', 'missing'),
    'file_tensor_number': ('tensors[1]', 'expected an object'),
    'file_tensor_subgraph_negative': (T0 + '.subgraph', 'out of range'),
    'file_tensor_index_string': (T0 + '.tensor', 'expected an integer'),
    'file_tensor_index_huge': (T0 + '.tensor', 'out of range'),
    'file_tensor_name_number': ('tensors[0].name', 'expected a string'),
    'file_tensor_repeated': ('tensors[3]', 'appears twice'),
    'file_count_negative': (T0 + '.count', 'negative'),
    'file_count_fraction': (T0 + '.count', 'non-integer 1.5'),
    'file_count_huge': (T0 + '.count', 'out of range'),
    'file_nan_huge': (T0 + '.nan', 'out of range'),
    'file_pos_inf_negative': (T0 + '.pos_inf', 'negative'),
    'file_neg_inf_bool': (T0 + '.neg_inf', 'got a boolean'),
    'file_min_string': (T0 + '.min', 'expected a number'),
    'file_min_above_max': (T0 + '.min', 'above max'),
    'file_max_beyond_float': (T0 + '.max', 'not a finite float32'),
    'file_min_overflow': (T0 + '.min', 'not a finite float32'),
    'file_max_overflow_literal': (NOT_JSON, "overflow parsing '1e400'"),
    'file_max_missing': (T1 + '.max', 'missing'),
    'file_histogram_odd': (T0 + '.histogram', 'pairs'),
    'file_histogram_string': (T0 + '.histogram', 'expected an array'),
    'file_histogram_key_out_of_range': (T2 + '.histogram[0]', 'out of range'),
    'file_histogram_key_negative': (T2 + '.histogram[0]', 'negative'),
    'file_histogram_key_nan_bucket': (T2 + '.histogram[0]', 'NaN or Inf'),
    'file_histogram_keys_descending': (T2 + '.histogram[2]', 'ascend'),
    'file_histogram_count_zero': (T2 + '.histogram[1]', '>= 1'),
    'file_histogram_count_negative': (T2 + '.histogram[1]', 'negative'),
    'file_histogram_sum_short': (T2 + '.histogram', 'sum to 12, but count is 40'),
    'file_histogram_sum_long': (T2 + '.histogram', 'sum to 606, but count is 40'),
    'file_histogram_outside_range': (T2 + '.histogram[2]', 'outside [min, max]'),
    'model_tensor_out_of_range': ('tensors[2]', 'tensor 999 is out of range'),
    'model_subgraph_out_of_range': ('tensors[2]', 'subgraph 5 is out of range'),
    'model_name_mismatch': ('tensors[1]', "'not_input1'"),
    'model_another_model': ('statistics of another model (model hash 0123456789abcdef', ''),
    'model_one_shard_of_two': ('covers 1 of 2 shards', ''),
}
assert sorted(EXPECT) == sorted(cases), set(EXPECT) ^ set(cases)

for f in os.listdir(HERE):
    if f.endswith('.json'):
        os.remove(os.path.join(HERE, f))
for name, t in sorted(cases.items()):
    with open(os.path.join(HERE, name + '.json'), 'w', encoding='latin-1') as f:
        f.write(t)
with open(os.path.join(HERE, 'expected.tsv'), 'w') as f:
    f.write('# file\tfield (follows "FILE: ")\talso in the line\n')
    for name in sorted(EXPECT):
        field, also = EXPECT[name]
        f.write('%s\t%s\t%s\n' % (name, field, also))
print(len(cases), 'files')
