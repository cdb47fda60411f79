#!/usr/bin/env bash
# session 9 run 16: median-of-5 halo/GDA at 4 ranks only; args: FIRST LAST (repeat numbers)
set -u
first=$1 last=$2
export XFERLAB_BIN=$PWD/.device/codec2/dist/bin HALO_RANKS=4 HALO_BOXES="16 24 32 64" BUDGET_S=150
{ date -u; nvidia-smi; nvidia-smi topo -m; lscpu | head -20; } > $OUT/device_$first.txt 2>&1
W=/tmp/r16; mkdir -p $W
for k in $(seq $first $last); do
  echo "=== repeat $k start $(date -u +%T)"
  native/halo/run_all.sh $W/rep$k | tail -4
  echo "rc=$? end $(date -u +%T)"
  tar -czf $OUT/rep$k.tgz -C $W rep$k
done
date -u >> $OUT/device_$first.txt
ls -la $OUT
