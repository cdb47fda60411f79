# Simulated vs measured end-to-end time, 2x H200 proact traces (docs/validation.md).
# gnuplot docs/validation/scatter.gp  (run from the repository root)
set datafile separator ','
set terminal pngcairo size 800,700
set output 'docs/img/validation_h200x2.png'
set logscale xy
set xlabel 'measured (us)'
set ylabel 'simulated (us)'
set key top left
set grid
f(x)=x
plot 'docs/validation/h200x2_validation.csv' using (strcol(4) eq 'transfer' ? $5 : NaN):8 \
       pt 7 ps 1.2 title 'transfer mechanisms', \
     '' using (strcol(4) eq 'compute-only' ? $5 : NaN):8 pt 6 ps 1.2 title 'compute-only (none/track)', \
     f(x) lt -1 dt 2 title 'y = x', 1.1*x lt 0 title '+10%', 0.9*x lt 0 title '-10%'
