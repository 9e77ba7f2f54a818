#!/usr/bin/env python3
"""Writes the remote_write seed corpus (corpus/remote_write_decoder/): request
bodies shaped like dcgm-exporter's and Prometheus' own, as Prometheus sends
them (snappy block format around a prompb.WriteRequest). Run from this folder;
the output is committed, so this runs only when the seeds should change."""

import os
import struct


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, wire_type, payload):
    key = varint(number << 3 | wire_type)
    if wire_type == 2:
        return key + varint(len(payload)) + payload
    return key + payload


def series(labels, samples):
    body = b""
    for name, value in sorted(labels.items()):
        body += field(1, 2, field(1, 2, name.encode()) + field(2, 2, value.encode()))
    for ts_ms, value in samples:
        body += field(2, 2, field(1, 1, struct.pack("<d", value)) + field(2, 0, varint(ts_ms)))
    return field(1, 2, body)


def metadata(name, help_text):
    # prompb.MetricMetadata: type (2, a gauge), metric_family_name, help
    return field(3, 2, field(1, 0, varint(2)) + field(2, 2, name.encode()) + field(4, 2, help_text.encode()))


def snappy(raw, use_copies):
    """Snappy block format: the length, then literals (and, with use_copies,
    2-byte-offset copies of an earlier run), enough for a valid stream."""
    out = bytearray(varint(len(raw)))
    i = 0
    while i < len(raw):
        if use_copies and i >= 64 and raw[i:i + 8] == raw[i - 64:i - 56]:
            n = 8
            while n < 64 and i + n < len(raw) and raw[i + n] == raw[i - 64 + n]:
                n += 1
            out.append(((n - 1) << 2) | 2)
            out += struct.pack("<H", 64)
            i += n
            continue
        n = min(60, len(raw) - i)
        out.append((n - 1) << 2)
        out += raw[i:i + n]
        i += n
    return bytes(out)


T0 = 1767225600000  # 2026-01-01T00:00:00Z in ms
gpu = {"UUID": "GPU-5d3e1c2a-0000-4000-8000-000000000001", "gpu": "0", "device": "nvidia0",
       "modelName": "NVIDIA A100-SXM4-80GB", "Hostname": "node-a", "job": "dcgm"}
STALE = struct.unpack("<d", struct.pack("<Q", 0x7FF0000000000002))[0]

requests = {
    "dcgm_util": series(dict(gpu, __name__="DCGM_FI_DEV_GPU_UTIL"), [(T0, 40), (T0 + 15000, 55)]),
    "dcgm_many": b"".join(
        series(dict(gpu, __name__=name, UUID=f"GPU-{g}", gpu=str(g)), [(T0 + 15000 * k, 10.0 * k) for k in range(4)])
        for name in ("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_POWER_USAGE",
                     "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "DCGM_FI_PROF_SM_ACTIVE")
        for g in range(2)),
    "blank_stale_nan": series(dict(gpu, __name__="DCGM_FI_DEV_POWER_USAGE"),
                              [(T0, 9223372036854775792.0), (T0 + 1, STALE), (T0 + 2, float("nan")),
                               (T0 + 3, float("inf")), (T0 + 4, -1.0)]),
    "unknown_and_no_device": series({"__name__": "up", "job": "dcgm", "instance": "node-a:9400"}, [(T0, 1)])
    + series({"__name__": "DCGM_FI_DEV_GPU_UTIL", "job": "dcgm"}, [(T0, 3)]),
    "metadata_only": metadata("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %)."),
    "tpu": series({"__name__": "duty_cycle", "accelerator_id": "tpu-0", "node": "tpu-node-1",
                   "make": "cloud-tpu", "model": "tpu-v5-lite-podslice"}, [(T0, 87)]),
    "empty": b"",
}

out_dir = "corpus/remote_write_decoder"
os.makedirs(out_dir, exist_ok=True)
for name, raw in requests.items():
    with open(os.path.join(out_dir, name + ".snappy"), "wb") as f:
        f.write(snappy(raw, use_copies=name == "dcgm_many"))
