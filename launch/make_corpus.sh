#!/usr/bin/env bash
# Makes a small LJSpeech-layout corpus (metadata.csv + wavs/) of real speech recordings with
# espeak-ng, resampled by sox so preprocessing has real resampling to do.
# Usage: launch/make_corpus.sh OUT_DIR [N_UTTERANCES=40] [SAMPLE_RATE=16000]
set -euo pipefail
out=${1:?usage: make_corpus.sh OUT_DIR [N] [SAMPLE_RATE]}
count=${2:-40}
rate=${3:-16000}
for tool in espeak-ng sox; do
  command -v "$tool" >/dev/null || { echo "make_corpus.sh: $tool is missing; run launch/setup.sh" >&2; exit 1; }
done

sentences=(
  "The quick brown fox jumps over the lazy dog."
  "A journey of a thousand miles begins with a single step."
  "She sells sea shells by the sea shore."
  "The early bird catches the worm, but the second mouse gets the cheese."
  "Please call Stella and ask her to bring these things with her from the store."
  "Six spoons of fresh snow peas and five thick slabs of blue cheese."
  "The rainbow is a division of white light into many beautiful colors."
  "When the sunlight strikes raindrops in the air, they act as a prism."
  "There is, according to legend, a boiling pot of gold at one end."
  "People look, but no one ever finds it."
  "The birch canoe slid on the smooth planks."
  "Glue the sheet to the dark blue background."
  "It is easy to tell the depth of a well."
  "These days a chicken leg is a rare dish."
  "Rice is often served in round bowls."
  "The juice of lemons makes fine punch."
  "The box was thrown beside the parked truck."
  "The hogs were fed chopped corn and garbage."
  "Four hours of steady work faced us."
  "A large size in stockings is hard to sell."
  "The boy was there when the sun rose."
  "A rod is used to catch pink salmon."
  "The source of the huge river is the clear spring."
  "Kick the ball straight and follow through."
  "Help the woman get back to her feet."
  "A pot of tea helps to pass the evening."
  "Smoky fires lack flame and heat."
  "The soft cushion broke the man's fall."
  "The salt breeze came across from the sea."
  "The girl at the booth sold fifty bonds."
  "The small pup gnawed a hole in the sock."
  "The fish twisted and turned on the bent hook."
  "Press the pants and sew a button on the vest."
  "The swan dive was far short of perfect."
  "The beauty of the view stunned the young boy."
  "Two blue fish swam in the tank."
  "Her purse was full of useless trash."
  "The colt reared and threw the tall rider."
  "It snowed, rained, and hailed the same morning."
  "Read verse out loud for pleasure."
  "Hoist the load to your left shoulder."
  "Take the winding path to reach the lake."
  "Note closely the size of the gas tank."
  "Wipe the grease off his dirty face."
  "Mend the coat before you go out."
  "The wrist was badly strained and hung limp."
  "The stray cat gave birth to a litter of kittens."
  "The meal was cooked before the bell rang."
  "What joy there is in living."
  "A king ruled the state in the early days."
)
voices=(en-us en-gb en-us+f3 en-gb+m3)
mkdir -p "$out/wavs"
: > "$out/metadata.csv.tmp"
for ((i = 0; i < count; i++)); do
  id=$(printf "DEMO%04d" "$i")
  text=${sentences[$((i % ${#sentences[@]}))]}
  voice=${voices[$(((i / ${#sentences[@]}) % ${#voices[@]}))]}
  speed=$((150 + (i * 7) % 40))
  if [ ! -s "$out/wavs/$id.wav" ]; then
    espeak-ng -v "$voice" -s "$speed" -w "$out/wavs/$id.tmp.wav" "$text"
    sox -V1 "$out/wavs/$id.tmp.wav" -r "$rate" -b 16 "$out/wavs/$id.wav" vol 0.8
    rm -f "$out/wavs/$id.tmp.wav"
  fi
  printf '%s|%s|%s\n' "$id" "$text" "$text" >> "$out/metadata.csv.tmp"
done
mv "$out/metadata.csv.tmp" "$out/metadata.csv"
echo "make_corpus.sh: $count utterances at $rate Hz in $out"
