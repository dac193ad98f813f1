#!/usr/bin/python3
# Regenerates the numpy-written fixtures under testdata/data/{npy,npz}/.
# Run from anywhere with Debian's numpy (apt-get install python3-numpy):
#   /usr/bin/python3 testdata/data/make_fixtures.py
# The tests check the exact values written here (np.arange patterns).
import os
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NPY = os.path.join(HERE, "npy")
NPZ = os.path.join(HERE, "npz")
os.makedirs(NPY, exist_ok=True)
os.makedirs(NPZ, exist_ok=True)

# One file per supported dtype: arange(6) as a 2x3 array (bool: i % 2).
for name in ["f4", "f8", "f2", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8"]:
    a = np.arange(6).reshape(2, 3).astype(name)
    if name in ("i1", "i2", "i4", "i8", "f4", "f8", "f2"):
        a = a - 2  # include negative values where the type has them
    np.save(os.path.join(NPY, name + ".npy"), a)
np.save(os.path.join(NPY, "b1.npy"), (np.arange(6) % 2 == 1).reshape(2, 3))

f4 = (np.arange(6, dtype=np.float32) * 0.5).reshape(2, 3)
for version in [(2, 0), (3, 0)]:
    with open(os.path.join(NPY, "f4_v%d.npy" % version[0]), "wb") as f:
        np.lib.format.write_array(f, f4, version=version)
np.save(os.path.join(NPY, "fortran.npy"), np.asfortranarray(f4))
np.save(os.path.join(NPY, "big_endian.npy"), f4.astype(">f4"))
np.save(os.path.join(NPY, "scalar.npy"), np.float32(3.5))
np.save(os.path.join(NPY, "empty.npy"), np.zeros((0, 3), np.float32))

# A two-input data set of 2 samples: image [2,4,4,3] float32 and mask [2,4]
# uint8, as np.savez (STORED entries) and np.savez_compressed (DEFLATE).
image = (np.arange(2 * 4 * 4 * 3, dtype=np.float32) / 10).reshape(2, 4, 4, 3)
mask = np.arange(8, dtype=np.uint8).reshape(2, 4)
np.savez(os.path.join(NPZ, "savez.npz"), image=image, mask=mask)
np.savez_compressed(os.path.join(NPZ, "savez_compressed.npz"), image=image,
                    mask=mask)
