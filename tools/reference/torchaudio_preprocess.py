#!/usr/bin/python3
"""The reference that `myxtts bench preprocess` measures itself against.

The same work as `myxtts preprocess` done the usual Python way: a process pool (one process per
core, one torch thread each), torchaudio to decode and resample, MelSpectrogram (Slaney) and a
natural log, peak normalisation, one .npy per utterance. Worker start-up (importing torch) is
excluded from the timing; only the work on the files counts.
Prints key=value lines: files, audio_seconds, seconds.
"""
import argparse
import os
import time
from multiprocessing import Pool

import numpy as np
import torch
import torchaudio

ARGS = None
MEL = None


def init(args):
    global ARGS, MEL
    torch.set_num_threads(1)
    ARGS = args
    MEL = torchaudio.transforms.MelSpectrogram(
        sample_rate=args.sample_rate, n_fft=args.n_fft, win_length=args.win, hop_length=args.hop,
        f_min=args.fmin, f_max=args.fmax, n_mels=args.n_mels, power=1.0, norm="slaney",
        mel_scale="slaney", center=True, pad_mode="reflect")


def warm_up(_):
    return os.getpid()


def process(item):
    uid, path = item
    wav, rate = torchaudio.load(path)
    seconds = wav.shape[1] / rate
    wav = wav.mean(dim=0)
    if rate != ARGS.sample_rate:
        wav = torchaudio.functional.resample(wav, rate, ARGS.sample_rate)
    if ARGS.peak > 0:
        wav = wav * (ARGS.peak / wav.abs().max().clamp(min=1e-8))
    mel = torch.log(torch.clamp(MEL(wav), min=1e-5)).T.contiguous()
    np.save(os.path.join(ARGS.output, uid + ".npy"), mel.numpy())
    return seconds


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--input", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--workers", type=int, default=os.cpu_count())
    p.add_argument("--sample-rate", type=int, default=22050)
    p.add_argument("--n-fft", type=int, default=1024)
    p.add_argument("--hop", type=int, default=256)
    p.add_argument("--win", type=int, default=1024)
    p.add_argument("--n-mels", type=int, default=80)
    p.add_argument("--fmin", type=float, default=0.0)
    p.add_argument("--fmax", type=float, default=8000.0)
    p.add_argument("--peak", type=float, default=0.95)
    args = p.parse_args()
    os.makedirs(args.output, exist_ok=True)
    items = []
    with open(os.path.join(args.input, "metadata.csv"), encoding="utf-8") as f:
        for line in f:
            uid = line.split("|", 1)[0].strip()
            if uid:
                items.append((uid, os.path.join(args.input, "wavs", uid + ".wav")))
    with Pool(args.workers, initializer=init, initargs=(args,)) as pool:
        pool.map(warm_up, range(args.workers * 4))
        start = time.perf_counter()
        seconds = pool.map(process, items, chunksize=8)
        elapsed = time.perf_counter() - start
    print(f"files={len(items)}")
    print(f"audio_seconds={sum(seconds):.3f}")
    print(f"seconds={elapsed:.4f}")


if __name__ == "__main__":
    main()
