# Lines of y against x with a log-2 x axis, one per series: dat holds
# "series,x,y" rows. Set by the caller: dat, out, fmt, title, xlabel, ylabel,
# series (space-separated names as they appear in dat). A y of NaN is a
# point the series lacks.
load 'plots/style.gp'
set title figure_title noenhanced
set logscale x 2
set xlabel xlabel
set ylabel ylabel
set yrange [0:*]
# On a slide the series' names are short (sizes, -O levels): beside the data,
# which keeps the figure's height for the lines.
if (fmt eq 'pdf') set key outside right top vertical maxrows 8
set offsets graph 0.03, graph 0.03, graph 0.05, 0
# A NaN, a point the series lacks, becomes a blank line: a break in its line.
rows(v) = sprintf("< awk -F, '$1 == \"%s\" { print ($3 == \"NaN\" ? \"\" : $0) }' '%s'", v, dat)
plot for [i = 1:words(series)] rows(word(series, i)) using 2:3 with linespoints lt i title word(series, i)
