# Grouped bars: one group per row of dat ("label,value1,value2,..."), one
# bar per column, named by the caller's series (space-separated, '_' for
# a space), each bar's value printed above it. Set by the caller: dat, out,
# fmt, title, subtitle, ylabel, series; logy=1 for a log-2 y axis starting
# at ymin. A label "lab 5; bank-free; 32 here" is set a piece a line; one
# without "; ", "lab 1 reference (2048x2048)", as "lab 1", "reference",
# "(2048x2048)".
load 'plots/style.gp'
set title figure_title noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill pattern border lc rgb '#000000'
set boxwidth 0.9
set ylabel ylabel
set xtics noenhanced
# "-": a kernel that made no request of a kind (no shared loads in lab 3) has no bar,
# never a bar of 0, which would read as a cost.
set datafile missing '-'
# The key inside, over the bars, in room kept free for it above the highest
# (offsets below): never above the title, nor over the labels under the bars.
set key inside top center horizontal maxrows 2
# A slide's figure is short: its labels smaller.
if (fmt eq 'pdf') { set xtics font ',12' }
n = words(series)
if (exists('logy') && logy) {
    set logscale y 2
    set yrange [ymin:*]
    set offsets 0, 0, graph 0.5, 0
} else {
    set yrange [0:*]
    set offsets 0, 0, graph 0.4, 0
}
# The centre of bar i of group g, as gnuplot places clustered bars.
x(g, i) = g + (i - (n + 1) / 2.0) / (n + 1)
label(v) = v == 0 ? '0' : (v >= 10 || v == int(v)) ? sprintf('%.0f', v) : (v >= 0.1 ? sprintf('%.2g', v) : sprintf('%.3g', v))
two_lines(s) = strstrt(s, ' (') ? s[1:strstrt(s, ' (') - 1] . "\n" . s[strstrt(s, ' (') + 1:*] : s
lab_line(s) = s[1:4] eq 'lab ' && strstrt(s[5:*], ' ') ? s[1:4 + strstrt(s[5:*], ' ') - 1] . "\n" . s[5 + strstrt(s[5:*], ' '):*] : s
# "lab 5; bank-free; 32 rec.": a line for each piece.
pieces(s) = strstrt(s, '; ') ? s[1:strstrt(s, '; ') - 1] . "\n" . pieces(s[strstrt(s, '; ') + 2:*]) : s
tic(s) = strstrt(s, '; ') ? pieces(s) : lab_line(two_lines(s))
# The bottom margin: as many lines as the longest label has (gnuplot's own
# margin counts one), so neither a label is cut nor an empty band is left.
lines(s) = strstrt(s, "\n") ? 1 + lines(s[strstrt(s, "\n") + 1:*]) : 1
stats dat using (lines(tic(strcol(1)))) nooutput
set bmargin STATS_max + 1.5
# Six groups or more: labels a size smaller, so that "32x8 here" and its
# neighbour's never touch.
if (fmt ne 'pdf' && STATS_records > 5) { set xtics font ',16' }
# A value's label only where it has one: gnuplot 5.4 crashes drawing the labels of a single
# group whose series has no value at all (lab 3's reference beside a stub: no shared requests).
@dry_run
plot for [i = 1:n] dat using (column(i + 1)):xtic(tic(strcol(1))) fs pattern (i == 1 ? 2 : i == 2 ? 4 : i == 3 ? 5 : 1) \
     lc rgb (i == 1 ? '#0072b2' : i == 2 ? '#d55e00' : i == 3 ? '#009e73' : '#cc79a7') \
     title system('echo ' . word(series, i) . ' | tr _ " "'), \
     for [i = 1:n] dat using (x($0, i)):(valid(i + 1) ? column(i + 1) : 0):(valid(i + 1) ? label(column(i + 1)) : '') \
         with labels offset 0,0.7 notitle
@fewer_tics
