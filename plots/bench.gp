# A bench CSV drawn as rate against size, one line per variant, each point
# with a bar from its slowest repetition to its fastest.
# Set by the caller (gnuplot -e): csv, csv_rows (the kit's reader of it), out, fmt, title, subtitle, unit
# ('GB/s' or 'GFLOP/s'), variants (the CSV's names, ceiling first), logy
# (1: a log y axis), counts (1: a size is a count of elements, rows x cols of them), and
# label1, label2 ...: each variant's legend (plot-bench.sh reads them off
# the CSV's label column).
load 'plots/style.gp'
# One number per size: the side of a square (of a cube for a product) of as many elements,
# or the count itself.
if (!exists('counts')) counts = 0
side(r, c, d) = counts ? r * c : unit eq 'GB/s' ? sqrt(r * c) : (r * c * d) ** (1.0 / 3)
# A square (a cube) of a power of two is a tick of the axis: any other shape is
# named on the axis too, at its side, on a second row under the powers of two
# (4097x8191 at 5793, 4097x4097 beside 4096, 2000³ beside 2048: its character, whose
# superscript would rise into the row above), a square by its
# side alone, "1000": short enough that 1000 and 1500 never touch. Named beside its
# point, a size sat on the lines that pass there (lab 8's 2000³ on the reference's).
pow2(n) = n >= 1 && 2 ** int(log(n) / log(2) + 0.5) == n
shape(r, c, d) = counts ? (pow2(r * c) ? '' : sprintf('%.0f', r * c)) : \
                 unit eq 'GB/s' ? (r == c ? (pow2(r) ? '' : sprintf('%d', r)) : sprintf('%dx%d', r, c)) : \
                 (r == c && c == d ? (pow2(r) ? '' : sprintf('%d³', r)) : sprintf('%dx%dx%d', r, c, d))
set title figure_title noenhanced
set logscale x 2
if (counts) { set format x '2^{%L}'; set xtics 1, 4 }
# The ceiling's sizes (the first variant's: every variant runs them), "rows cols depth"
# each, in order of size. Two names less than a factor of 2 apart (1000 and 1500: on a
# slide's figure, "10001500") take a row each.
size_key = unit eq 'GB/s' ? '$1 * $2' : '$1 * $2 * $3'
sizes = system(sprintf("'%s' --sep ' ' --where 'variant=%s' '%s' rows cols depth | awk '{ print %s \"\\t\" $0 }' | sort -g | cut -f2-", \
    csv_rows, word(variants, 1), csv, size_key))
named = 0; last = 0; row = 1
do for [j = 1:words(sizes) / 3] {
    r = word(sizes, 3 * j - 2) + 0; c = word(sizes, 3 * j - 1) + 0; d = word(sizes, 3 * j) + 0
    if (strlen(shape(r, c, d)) > 0) {
        row = last > 0 && side(r, c, d) < 2 * last && row == 1 ? 2 : 1
        set xtics add ((row == 1 ? "\n" : "\n\n") . shape(r, c, d) side(r, c, d))
        last = side(r, c, d); named = named > row ? named : row
    }
}
set xlabel (counts ? 'n, elements, log_2 scale' : unit eq 'GB/s' ? 'matrix side, sqrt(rows x cols), log_2 scale' : 'matrix side, (m n k)^{1/3}, log_2 scale') offset 0, -1.2 * named
# A slide's figure is short: the unit alone, and a smaller legend in two columns.
set ylabel unit . (logy ? ', log scale' : '') . (fmt eq 'pdf' ? '' : ' (bars: slowest to fastest run)')
if (fmt eq 'pdf') set key font ',12'
# Rates far apart (plot-bench.sh sets logy): a log axis with ticks at 1, 2, 5 times a power of ten.
if (logy) {
    set logscale y 10
    set yrange [*:*]
    set autoscale yfix  # the data's range, not widened to the nearest listed tick
    set ytics ()
    do for [e = -3:5] { set ytics add (sprintf('%g', 10.0**e) 10.0**e, sprintf('%g', 2 * 10.0**e) 2 * 10.0**e, sprintf('%g', 5 * 10.0**e) 5 * 10.0**e) }
} else {
    set yrange [0:*]
}
set offsets graph 0.03, graph 0.03, graph 0.12, 0
set errorbars small
# One pass over the CSV per variant, so that each variant's points join up:
# its columns by name (csv_rows: the kit's reader, harness/tools/csv_rows.c),
# then that variant's rows in order of size (a run appends an odd shape such
# as 4097x8191 after the squares).
set datafile columnheaders
rows(v) = sprintf("< '%s' --header --sep , --where 'variant=%s' '%s' rows cols depth rate median_s min_s max_s | { IFS= read -r h; echo \"$h\"; awk -F, '{ print %s \"\\t\" $0 | \"sort -g | cut -f2-\" }'; }", csv_rows, v, csv, size_key)
# The rate of a repetition that took t seconds, from the median's.
at(t) = column("rate") * column("median_s") / t
# The bars solid whatever the line's dashes, drawn apart from the lines.
@dry_run
plot for [i = 1:words(variants)] rows(word(variants, i)) using (side(column("rows"), column("cols"), column("depth"))):(column("rate")):(at(column("max_s"))):(at(column("min_s"))) \
     with yerrorbars lt i dt 1 lw 1.5 ps 0 notitle, \
     for [i = 1:words(variants)] rows(word(variants, i)) using (side(column("rows"), column("cols"), column("depth"))):(column("rate")) \
     with linespoints lt i title value(sprintf('label%d', i))
@fewer_tics
