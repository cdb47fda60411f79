# Predicted vs measured on h200x4_hgx_nvswitch, 4x H200 NVSwitch campaign of
# 2026-11-26 (all held-out; docs/validation.md, "4x H200 NVSwitch campaign
# (2026-11-26): held-out"): (a) the campaign's own 4-GPU traces replayed
# (validate) and (b) the applications predicted from 2x H200 traces with
# --gpus 4 --scaling strong. Written by docs/validation/h200x4_heldout.py --run.
# gnuplot docs/validation/scatter_h200x4_2026-11-26.gp  (run from the repository root)
set datafile separator ','
set terminal pngcairo size 800,700
set output 'docs/img/validation_h200x4_2026-11-26.png'
set logscale xy
set xrange [300:200000]
set yrange [300:200000]
set xlabel 'measured, 4x H200 (us)'
set ylabel 'simulated (us)'
set key top left
set grid
f(x)=x
a='docs/validation/h200x4_2026-11-26_validate.csv'
b='docs/validation/h200x4_2026-11-26_from_2gpu.csv'
plot a using (strcol(4) eq 'transfer' ? $5 : NaN):8 pt 7 ps 1.0 title '(a) 4-GPU traces, transfer', \
     a using (strcol(4) eq 'compute-only' ? $5 : NaN):8 pt 2 ps 0.9 title '(a) 4-GPU traces, compute-only', \
     b using (strcol(8) eq 'end-to-end' && strcol(6) eq 'transfer' ? $9 : NaN):11 pt 6 ps 1.4 title '(b) from 2-GPU traces, applications, transfer', \
     b using (strcol(8) eq 'end-to-end' && strcol(6) eq 'compute-only' ? $9 : NaN):11 pt 4 ps 1.2 title '(b) from 2-GPU traces, applications, compute-only', \
     f(x) lt -1 dt 2 title 'y = x', 1.1*x lt 0 title '+10%', 0.9*x lt 0 title '-10%'
