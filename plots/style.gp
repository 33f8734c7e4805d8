# tilelab's look for every figure: readable in black and white (each line has
# its own dash pattern and point shape as well as its colour), the legend
# outside the data, axes labelled with units. Scripts load it after setting
# fmt ('png', 'svg', 'pdf': for a slide, whose frame gives the title and
# whose line under the figure names its data, or 'print': a PDF laid out as
# the PNG, for the report's PDF), out (the file, without
# extension), title, and optionally subtitle (where the numbers came from,
# lines separated by newlines). Sizes are for the back of a lecture hall: a
# slide shows a PDF figure at about 60 % of its height, so its text is 16 pt
# on a 2.9 in figure (about 9-10 pt on the slide, near the slide's own text),
# its lines are thick, and a projected PNG keeps the same proportions.
if (fmt eq 'svg') {
    set terminal svg size 1000,620 dynamic enhanced font 'Helvetica,17' background '#ffffff'
} else {
    if (fmt eq 'pdf') {
        set terminal pdfcairo size 5in,2.9in enhanced font 'Helvetica,16' linewidth 1.4
    } else {
        if (fmt eq 'print') {
            set terminal pdfcairo size 8in,5in enhanced font 'Helvetica,12' linewidth 1
        } else {
            set terminal pngcairo size 1200,750 enhanced font 'Helvetica,19' background '#ffffff'
        }
    }
}
# The file's extension: 'print' is a PDF too.
ext = fmt eq 'print' ? 'pdf' : fmt
set output out . '.' . ext
set datafile separator ','
set border 3 lw 1.2
set tics nomirror out
set grid ytics lc rgb '#d8d8d8' lw 1 dt 1
set key outside below center horizontal Left reverse noenhanced samplen 3 spacing 1.2 width 2 maxrows 2
set linetype 1 lc rgb '#000000' lw 3 dt 1 pt 7 ps 1.1
set linetype 2 lc rgb '#d55e00' lw 3 dt 2 pt 5 ps 1.1
set linetype 3 lc rgb '#0072b2' lw 3 dt 4 pt 9 ps 1.3
set linetype 4 lc rgb '#009e73' lw 3 dt 5 pt 13 ps 1.2
set linetype 5 lc rgb '#cc79a7' lw 3 dt 3 pt 11 ps 1.3
set linetype 6 lc rgb '#e69f00' lw 3 dt (8,4,2,4) pt 3 ps 1.2
set linetype 7 lc rgb '#56b4e9' lw 3 dt (2,2) pt 6 ps 1.2
set linetype cycle 7
# The title a script sets: nothing on a slide, else the title and, on the
# lines below it, where the numbers came from.
figure_title = fmt eq 'pdf' ? '' : \
    title . ((exists('subtitle') && strlen(subtitle) > 0) ? "\n" . subtitle : '')
# A slide's PDF is short: autoscaled tics, 20 units apart up to 200, would
# touch. A script that calls dry_run before its plot and fewer_tics after it
# draws the PDF again with at most 5 tics on the y axis, a step of 1, 2 or 5
# times a power of ten (a factor of 4 on a log axis).
tic_step(range, most) = (tic_b = 10 ** floor(log10(range / most)), \
    range / tic_b <= most ? tic_b : range / (2 * tic_b) <= most ? 2 * tic_b : range / (5 * tic_b) <= most ? 5 * tic_b : 10 * tic_b)
dry_run = "if (fmt eq 'pdf') { set terminal push; set terminal unknown }"
fewer_tics = "if (fmt eq 'pdf') { set terminal pop; set output out . '.' . ext; \
    if (exists('logy') && logy) { set ytics 4 } else { set ytics tic_step(GPVAL_Y_MAX - GPVAL_Y_MIN, 4) }; replot }"
