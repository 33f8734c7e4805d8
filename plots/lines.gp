# Lines of y against x with a log-2 x axis, one per series: dat holds
# "series,x,y,low,high,name" rows (x a number or a size, "4097x8191"), low and high the ends of the point's bar
# (its slowest and fastest run), name what the point is called where its x
# is no tick's ("4097x8191"), or nothing: written over its bar. Set by the
# caller: dat, out, fmt, title, xlabel, ylabel, series (space-separated
# names as they appear in dat). A y of NaN is a point the series lacks.
load 'plots/style.gp'
set title figure_title noenhanced
set logscale x 2
set xlabel xlabel
# A slide's figure is short: the unit alone, "GB/s (bars: ...)" -> "GB/s".
set ylabel (fmt eq 'pdf' && strstrt(ylabel, ' (') ? ylabel[1:strstrt(ylabel, ' (') - 1] : ylabel)
set yrange [0:*]
set errorbars small
# On a slide the series' names are short (sizes, -O levels): beside the data,
# which keeps the figure's height for the lines.
if (fmt eq 'pdf') set key outside right top vertical maxrows 8
set offsets graph 0.03, graph 0.03, graph 0.12, 0
# x as a number, or a size "4097x8191" placed at the side of a square as large.
xval(s) = strstrt(s, 'x') ? sqrt(real(s[1:strstrt(s, 'x') - 1]) * real(s[strstrt(s, 'x') + 1:*])) : real(s)
# A NaN, a point the series lacks, becomes a blank line: a break in its line.
rows(v) = sprintf("< awk -F, '$1 == \"%s\" { print ($3 == \"NaN\" ? \"\" : $0) }' '%s'", v, dat)
# The bars solid whatever the line's dashes, under the lines.
@dry_run
plot for [i = 1:words(series)] rows(word(series, i)) using (xval(strcol(2))):3:4:5 with yerrorbars lt i dt 1 lw 1.5 ps 0 notitle, \
     for [i = 1:words(series)] rows(word(series, i)) using (xval(strcol(2))):3 with linespoints lt i title word(series, i), \
     for [i = 1:words(series)] rows(word(series, i)) using (xval(strcol(2))):5:6 with labels offset char 0, 0.8 notitle
@fewer_tics
