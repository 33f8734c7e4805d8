# Lines of y against x with a log-2 x axis, one per series: dat holds
# "series,x,y" rows. Set by the caller: dat, out, fmt, title, xlabel, ylabel,
# series (space-separated names as they appear in dat).
load 'plots/style.gp'
set title figure_title noenhanced
set logscale x 2
set xlabel xlabel
set ylabel ylabel
set yrange [0:*]
set offsets graph 0.03, graph 0.03, graph 0.05, 0
rows(v) = sprintf("< awk -F, '$1 == \"%s\"' '%s'", v, dat)
plot for [i = 1:words(series)] rows(word(series, i)) using 2:3 with linespoints lt i title word(series, i)
