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
# Labels of up to three lines ("lab 5", "bank-free", "(TILE_DIM=32, here)")
# leave no room for the key below the bars: it goes above them.
set key outside top center horizontal maxrows 2
# A slide's figure is short: its labels smaller, and room for three lines of them, no more.
if (fmt eq 'pdf') { set xtics font ',12'; set bmargin 4 } else { set bmargin 7 }
n = words(series)
if (exists('logy') && logy) {
    set logscale y 2
    set yrange [ymin:*]
    set offsets 0, 0, graph 0.12, 0
} else {
    set yrange [0:*]
    set offsets 0, 0, graph 0.1, 0
}
# The centre of bar i of group g, as gnuplot places clustered bars.
x(g, i) = g + (i - (n + 1) / 2.0) / (n + 1)
label(v) = v == 0 ? '0' : (v >= 10 || v == int(v)) ? sprintf('%.0f', v) : (v >= 0.1 ? sprintf('%.2g', v) : sprintf('%.3g', v))
two_lines(s) = strstrt(s, ' (') ? s[1:strstrt(s, ' (') - 1] . "\n" . s[strstrt(s, ' (') + 1:*] : s
lab_line(s) = s[1:4] eq 'lab ' && strstrt(s[5:*], ' ') ? s[1:4 + strstrt(s[5:*], ' ') - 1] . "\n" . s[5 + strstrt(s[5:*], ' '):*] : s
# "lab 5; bank-free; 32 rec.": a line for each piece.
pieces(s) = strstrt(s, '; ') ? s[1:strstrt(s, '; ') - 1] . "\n" . pieces(s[strstrt(s, '; ') + 2:*]) : s
tic(s) = strstrt(s, '; ') ? pieces(s) : lab_line(two_lines(s))
@dry_run
plot for [i = 1:n] dat using (column(i + 1)):xtic(tic(strcol(1))) fs pattern (i == 1 ? 2 : i == 2 ? 4 : i == 3 ? 5 : 1) \
     lc rgb (i == 1 ? '#0072b2' : i == 2 ? '#d55e00' : i == 3 ? '#009e73' : '#cc79a7') \
     title system('echo ' . word(series, i) . ' | tr _ " "'), \
     for [i = 1:n] dat using (x($0, i)):(column(i + 1)):(label(column(i + 1))) with labels offset 0,0.7 notitle
@fewer_tics
