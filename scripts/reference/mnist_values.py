#!/usr/bin/env python3
"""Independent values of the MNIST files that `bash scripts/setup-data.sh` installs, read by
crates/probdml-train/tests/train_data.rs to check the loader (`probdml_train::data::mnist`, `mnist_ood`).

Python standard library only; nothing here calls probdml. The IDX format is read from its
definition (LeCun, Cortes & Burges, "The MNIST database"): a big-endian header — magic
0x00000803 for images (then count, rows, cols) or 0x00000801 for labels (then count) — and
one unsigned byte per pixel or label. Files are read gzip-compressed, or plain when only the
name without `.gz` exists. FNV-1a (64-bit) is the checksum: short to write in any language.

Run from the repository root, after `bash scripts/setup-data.sh`:
  python3 scripts/reference/mnist_values.py > scripts/reference/mnist_values.txt
"""
import gzip
import os
import struct
import sys

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1


def fnv1a64(data):
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK
    return h


def read(path):
    if not os.path.exists(path) and os.path.exists(path[: -len(".gz")]):
        path = path[: -len(".gz")]
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return f.read()


def images(path):
    raw = read(path)
    magic, n, rows, cols = struct.unpack(">IIII", raw[:16])
    assert magic == 0x803, f"{path}: magic {magic:#x}"
    pixels = raw[16:]
    assert len(pixels) == n * rows * cols, f"{path}: {len(pixels)} bytes for {n}x{rows}x{cols}"
    return n, rows, cols, pixels


def labels(path):
    raw = read(path)
    magic, n = struct.unpack(">II", raw[:8])
    assert magic == 0x801, f"{path}: magic {magic:#x}"
    assert len(raw) - 8 == n, f"{path}: {len(raw) - 8} labels, header says {n}"
    return raw[8:]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "data/mnist"
    print(f"# scripts/reference/mnist_values.py, Python {sys.version.split()[0]}, standard library only")
    print("# command: python3 scripts/reference/mnist_values.py > scripts/reference/mnist_values.txt")
    print("# input: data/mnist/{t10k,train}-{images-idx3,labels-idx1}-ubyte.gz (bash scripts/setup-data.sh)")
    for split, prefix in (("test", "t10k"), ("train", "train")):
        n, rows, cols, px = images(os.path.join(root, f"{prefix}-images-idx3-ubyte.gz"))
        lab = labels(os.path.join(root, f"{prefix}-labels-idx1-ubyte.gz"))
        assert len(lab) == n, f"{split}: {len(lab)} labels for {n} images"
        size = rows * cols
        counts = [lab.count(d) for d in range(10)]
        print(f"{split}.images = {n}")
        print(f"{split}.shape = {rows} {cols}")
        print(f"{split}.class_counts = {' '.join(map(str, counts))}")
        print(f"{split}.first_labels = {' '.join(map(str, lab[:10]))}")
        print(f"{split}.last_label = {lab[-1]}")
        print(f"{split}.pixel_min_max = {min(px)} {max(px)}")
        print(f"{split}.pixel_sum = {sum(px)}")
        for i in (0, n - 1):
            img = px[i * size:(i + 1) * size]
            print(f"{split}.image{i}.label = {lab[i]}")
            print(f"{split}.image{i}.pixel_sum = {sum(img)}")
            print(f"{split}.image{i}.fnv1a64 = {fnv1a64(img):#018x}")
        print(f"{split}.labels.fnv1a64 = {fnv1a64(lab):#018x}")
        # The whole test payload; the training payload (47 MB) only through its sum above.
        if split == "test":
            print(f"{split}.pixels.fnv1a64 = {fnv1a64(px):#018x}")


if __name__ == "__main__":
    main()
