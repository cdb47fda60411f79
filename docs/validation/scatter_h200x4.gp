# Simulated vs measured, 4x H200 HGX traces on the preset validate picks
# (h200x4_hgx_nvswitch): held-out filled, in-sample (the micro memcpy/none
# rows the copy engine was fitted on) hollow. docs/validation.md.
# gnuplot docs/validation/scatter_h200x4.gp  (run from the repository root)
set datafile separator ','
set terminal pngcairo size 800,700
set output 'docs/img/validation_h200x4.png'
set logscale xy
set xlabel 'measured (us)'
set ylabel 'simulated (us)'
set key top left
set grid
f(x)=x
d='docs/validation/h200x4_validation.csv'
plot d using (strcol(4) eq 'transfer' && strcol(11) eq 'held-out' ? $5 : NaN):8 pt 7 ps 1.2 title 'transfer, held-out', \
     d using (strcol(4) eq 'transfer' && strcol(11) eq 'in-sample' ? $5 : NaN):8 pt 6 ps 1.6 title 'transfer, in-sample', \
     d using (strcol(4) eq 'compute-only' ? $5 : NaN):8 pt 2 ps 1.0 title 'compute-only (none/track)', \
     f(x) lt -1 dt 2 title 'y = x', 1.1*x lt 0 title '+10%', 0.9*x lt 0 title '-10%'
