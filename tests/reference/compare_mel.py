#!/usr/bin/python3
"""Checks MyXTTS log-mels against torchaudio on the same audio and parameters.

Runs `myxtts preprocess` on a corpus of real speech (espeak-ng) and synthetic signals, reads
the cache with h5py, recomputes every utterance with torchaudio and bounds the difference.
Usage: compare_mel.py MYXTTS_BINARY WORK_DIR   (needs Debian's python3-torchaudio, python3-h5py)
"""
import math
import os
import shutil
import subprocess
import sys
import wave

import h5py
import numpy as np
import torch
import torchaudio

SR = 22050
PARAMS = dict(sample_rate=SR, n_fft=1024, win_length=1024, hop_length=256, f_min=0.0,
              f_max=8000.0, n_mels=80, power=1.0, norm="slaney", mel_scale="slaney",
              center=True, pad_mode="reflect")
FLOOR = 1e-5
# Same-rate features: float32 rounding only. Resampled features: two different (good)
# resamplers, so a looser bound, on frames well above the floor.
MAX_ABS_SAME_RATE = 5e-4
MEAN_ABS_SAME_RATE = 2e-5
MEAN_ABS_RESAMPLED = 0.05


def write_wav(path, samples, rate):
    pcm = np.clip(np.round(samples * 32767.0), -32768, 32767).astype("<i2")
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())


def make_corpus(root, rate):
    wavs = os.path.join(root, "wavs")
    os.makedirs(wavs)
    rng = np.random.default_rng(3)
    lines = []
    for i, seconds in enumerate([0.7, 1.3, 2.9]):
        t = np.arange(int(seconds * rate)) / rate
        chirp = np.sin(2 * math.pi * (100 + 1500 * t) * t)
        harmonics = sum(0.3 / k * np.sin(2 * math.pi * 220 * k * t) for k in range(1, 8))
        samples = 0.4 * chirp + 0.3 * harmonics + 0.01 * rng.standard_normal(len(t))
        write_wav(os.path.join(wavs, f"SYN{i}.wav"), samples / np.abs(samples).max() * 0.8, rate)
        lines.append(f"SYN{i}|synthetic signal number {i}")
    if shutil.which("espeak-ng"):
        raw = os.path.join(root, "speech.wav")
        subprocess.run(["espeak-ng", "-w", raw, "Checking the mel spectrogram against a reference."],
                       check=True)
        speech, speech_rate = torchaudio.load(raw)
        if speech_rate != rate:
            speech = torchaudio.functional.resample(speech, speech_rate, rate)
        write_wav(os.path.join(wavs, "SPEECH.wav"), speech[0].numpy() * 0.9, rate)
        lines.append("SPEECH|checking the mel spectrogram against a reference")
    with open(os.path.join(root, "metadata.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")


def preprocess(binary, corpus, cache):
    subprocess.run([binary, "preprocess", "-i", corpus, "-o", cache,
                    "--set", "audio.trim_silence=false", "--set", "audio.peak_normalize=0",
                    "--set", "data.min_duration=0.1"], check=True)


def reference_mel(path):
    wav, rate = torchaudio.load(path)
    if rate != SR:
        wav = torchaudio.functional.resample(wav, rate, SR)
    mel = torchaudio.transforms.MelSpectrogram(**PARAMS)(wav[0])
    return torch.log(torch.clamp(mel, min=FLOOR)).T.numpy()  # [frames, mels]


def compare(binary, work, rate):
    corpus, cache = os.path.join(work, f"corpus{rate}"), os.path.join(work, f"cache{rate}")
    shutil.rmtree(corpus, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    make_corpus(corpus, rate)
    preprocess(binary, corpus, cache)
    worst_max, worst_mean = 0.0, 0.0
    with h5py.File(os.path.join(cache, "features.h5"), "r") as f:
        ids = [s.decode() for s in f["index/id"][:]]
        for i, uid in enumerate(ids):
            offset, frames = f["index/mel_offset"][i], f["index/n_frames"][i]
            ours = f["mel"][offset:offset + frames]
            ref = reference_mel(os.path.join(corpus, "wavs", uid + ".wav"))
            if ref.shape != ours.shape:
                raise SystemExit(f"{uid}: shape {ours.shape} but torchaudio gives {ref.shape}")
            loud = ref > math.log(FLOOR) + 4.0  # away from the floor, where the log is stable
            diff = np.abs(ours - ref)[loud]
            worst_max, worst_mean = max(worst_max, diff.max()), max(worst_mean, diff.mean())
            print(f"{rate} Hz {uid}: {frames} frames, max |diff| {diff.max():.2e}, "
                  f"mean {diff.mean():.2e}")
    return worst_max, worst_mean


def main():
    binary, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    same_max, same_mean = compare(binary, work, SR)
    _, resampled_mean = compare(binary, work, 16000)
    print(f"same rate: max {same_max:.2e} (bound {MAX_ABS_SAME_RATE}), "
          f"mean {same_mean:.2e} (bound {MEAN_ABS_SAME_RATE}); "
          f"16 kHz input resampled: mean {resampled_mean:.2e} (bound {MEAN_ABS_RESAMPLED})")
    failed = (same_max > MAX_ABS_SAME_RATE or same_mean > MEAN_ABS_SAME_RATE
              or resampled_mean > MEAN_ABS_RESAMPLED)
    print("1 passed, 0 failed" if not failed else "0 passed, 1 failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
