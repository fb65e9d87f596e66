#!/usr/bin/python3
"""Decodes a TensorBoard event file with the standard library only (no tensorboard, no protobuf).

Checks every record's framing and masked CRC32C, decodes Event{wall_time, step, file_version,
summary} and prints one JSON object per summary value:
  {"step": N, "tag": "...", "value": X}        scalars (simple_value)
  {"step": N, "tag": "...", "image": [h, w]}   images (PNG signature and IHDR size checked)
Exits 1 with a message on any corruption. Usage: read_events.py EVENTFILE | --self-test
"""
import json
import os
import struct
import sys
import tempfile


class Corrupt(Exception):
    pass


def _crc_table():
    table = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
        table.append(crc)
    return table


CRC_TABLE = _crc_table()


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc = CRC_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(blob):
    """Yields (offset, data) for each TFRecord; raises Corrupt on bad framing or CRC."""
    pos = 0
    while pos < len(blob):
        if len(blob) - pos < 12:
            raise Corrupt(f"truncated record header at byte {pos}")
        header = blob[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", blob[pos + 8:pos + 12])
        if header_crc != masked_crc(header):
            raise Corrupt(f"length CRC mismatch in record at byte {pos}")
        end = pos + 12 + length
        if end + 4 > len(blob):
            raise Corrupt(f"truncated record at byte {pos} (length {length})")
        data = blob[pos + 12:end]
        if struct.unpack("<I", blob[end:end + 4])[0] != masked_crc(data):
            raise Corrupt(f"data CRC mismatch in record at byte {pos}")
        yield pos, data
        pos = end + 4


def fields(msg):
    """Protobuf wire format → list of (field number, value): int for varints, bytes otherwise."""
    out, pos = [], 0

    def varint():
        nonlocal pos
        value, shift = 0, 0
        while True:
            if pos >= len(msg) or shift > 63:
                raise Corrupt("bad varint")
            b = msg[pos]
            pos += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return value

    while pos < len(msg):
        key = varint()
        number, wire = key >> 3, key & 7
        size = {1: 8, 5: 4}.get(wire)
        if wire == 0:
            out.append((number, varint()))
            continue
        if wire == 2:
            size = varint()
        if size is None or pos + size > len(msg):
            raise Corrupt(f"bad field {number} (wire type {wire})")
        out.append((number, msg[pos:pos + size]))
        pos += size
    return out


def signed64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def decode_value(step, value):
    f = dict(fields(value))
    tag = f.get(1, b"").decode("utf-8")
    if 2 in f:
        return {"step": step, "tag": tag, "value": struct.unpack("<f", f[2])[0]}
    if 4 in f:
        image = dict(fields(f[4]))
        h, w, png = image.get(1, 0), image.get(2, 0), image.get(4, b"")
        if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
            raise Corrupt(f"image {tag!r} at step {step} is not a PNG")
        if struct.unpack(">II", png[16:24]) != (w, h):
            raise Corrupt(f"image {tag!r} at step {step}: PNG size differs from {h}x{w}")
        return {"step": step, "tag": tag, "image": [h, w]}
    raise Corrupt(f"summary value {tag!r} at step {step} is neither a scalar nor an image")


def decode(path):
    """Returns the JSON-ready summary values of an event file; raises Corrupt."""
    with open(path, "rb") as f:
        blob = f.read()
    out = []
    for index, (offset, data) in enumerate(records(blob)):
        try:
            event = fields(data)
            e = dict(event)
            struct.unpack("<d", e[1])  # wall_time must be a double
            step = signed64(e.get(2, 0))
            if index == 0 and e.get(3, b"") != b"brain.Event:2":
                raise Corrupt("first record is not file_version brain.Event:2")
            for number, summary in event:
                if number == 5:
                    out += [decode_value(step, v) for n, v in fields(summary) if n == 1]
        except (Corrupt, KeyError, struct.error, UnicodeDecodeError, TypeError,
                AttributeError) as err:
            why = err if isinstance(err, Corrupt) else f"malformed event ({err!r})"
            raise Corrupt(f"record {index} at byte {offset}: {why}") from None
    if not blob:
        raise Corrupt("empty file (no file_version record)")
    return out


def self_test():
    """Encodes a file with this script's own writer, then checks good and corrupt copies."""
    assert crc32c(b"123456789") == 0xE3069283  # the standard CRC-32C check value

    def key(number, wire):
        return bytes([number << 3 | wire])

    def blob_field(number, data):
        assert len(data) < 128
        return key(number, 2) + bytes([len(data)]) + data

    def record(data):
        length = struct.pack("<Q", len(data))
        return (length + struct.pack("<I", masked_crc(length)) + data +
                struct.pack("<I", masked_crc(data)))

    def event(step, payload):
        return key(1, 1) + struct.pack("<d", 1.7e9) + key(2, 0) + bytes([step]) + payload

    png = b"\x89PNG\r\n\x1a\n" + b"\0\0\0\x0dIHDR" + struct.pack(">II", 5, 2)
    image = key(1, 0) + b"\x02" + key(2, 0) + b"\x05" + key(3, 0) + b"\x03" + blob_field(4, png)
    good = (record(event(0, blob_field(3, b"brain.Event:2"))) +
            record(event(7, blob_field(5, blob_field(1, blob_field(1, b"loss") + key(2, 5) +
                                                                 struct.pack("<f", 0.25))))) +
            record(event(9, blob_field(5, blob_field(1, blob_field(1, b"mel") +
                                                                 blob_field(4, image))))))
    expected = [{"step": 7, "tag": "loss", "value": 0.25},
                {"step": 9, "tag": "mel", "image": [2, 5]}]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "events.out.tfevents.0.selftest")
        with open(path, "wb") as f:
            f.write(good)
        got = decode(path)
        assert got == expected, got
        for position in range(len(good)):  # every single corrupted byte must be caught
            with open(path, "wb") as f:
                f.write(good[:position] + bytes([good[position] ^ 0x20]) + good[position + 1:])
            try:
                decode(path)
            except Corrupt:
                continue
            raise AssertionError(f"corruption at byte {position} was not detected")
    print("read_events.py self-test passed")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--self-test":
        self_test()
        return
    try:
        for value in decode(sys.argv[1]):
            print(json.dumps(value))
    except (Corrupt, OSError) as err:
        sys.exit(f"read_events.py: {sys.argv[1]}: {err}")


if __name__ == "__main__":
    main()
