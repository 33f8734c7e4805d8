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
# Only a square (a cube) of a power of two has a tick of its own: any other shape is
# named over its point (4097x8191 sits at a side of 5793, 4097x4097 on 4096's tick),
# a square by its side alone, "1000": short enough that 1000 and 1500 never touch. A name
# stands right of the ceiling's point, not over it (4097 over 4096's tick hid its point).
pow2(n) = n >= 1 && 2 ** int(log(n) / log(2) + 0.5) == n
shape(r, c, d) = counts ? (pow2(r * c) ? '' : sprintf('%.0f', r * c)) : \
                 unit eq 'GB/s' ? (r == c ? (pow2(r) ? '' : sprintf('%d', r)) : sprintf('%dx%d', r, c)) : \
                 (r == c && c == d ? (pow2(r) ? '' : sprintf('%d^3', r)) : sprintf('%dx%dx%d', r, c, d))
set title figure_title noenhanced
set logscale x 2
if (counts) { set format x '2^{%L}'; set xtics 1, 4 }
set xlabel (counts ? 'n, elements, log_2 scale' : unit eq 'GB/s' ? 'matrix side, sqrt(rows x cols), log_2 scale' : 'matrix side, (m n k)^{1/3}, log_2 scale')
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
size_key = unit eq 'GB/s' ? '$1 * $2' : '$1 * $2 * $3'
rows(v) = sprintf("< '%s' --header --sep , --where 'variant=%s' '%s' rows cols depth rate median_s min_s max_s | { IFS= read -r h; echo \"$h\"; awk -F, '{ print %s \"\\t\" $0 | \"sort -g | cut -f2-\" }'; }", csv_rows, v, csv, size_key)
# The rate of a repetition that took t seconds, from the median's.
at(t) = column("rate") * column("median_s") / t
# The bars solid whatever the line's dashes, drawn apart from the lines.
@dry_run
plot for [i = 1:words(variants)] rows(word(variants, i)) using (side(column("rows"), column("cols"), column("depth"))):(column("rate")):(at(column("max_s"))):(at(column("min_s"))) \
     with yerrorbars lt i dt 1 lw 1.5 ps 0 notitle, \
     for [i = 1:words(variants)] rows(word(variants, i)) using (side(column("rows"), column("cols"), column("depth"))):(column("rate")) \
     with linespoints lt i title value(sprintf('label%d', i)), \
     rows(word(variants, 1)) using (side(column("rows"), column("cols"), column("depth"))):(column("rate")):(shape(column("rows"), column("cols"), column("depth"))) with labels left offset char 1, 0 notitle
@fewer_tics
