# The ladder: each lab's reference as a share of its ceiling at one size.
# Set by the caller: dat (lines "label,share,machine,origin"), out, fmt,
# title, subtitle. Under each bar: its lab, machine and origin.
load 'plots/style.gp'
set title figure_title noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill pattern 1 border lc rgb '#000000'
set boxwidth 0.8
set yrange [0:1.15]

set ytics ('0' 0, '25%%' 0.25, '50%%' 0.5, '75%%' 0.75, '100%%' 1.0)
set ylabel 'share of its ceiling' offset -1, 0
set xtics noenhanced
set bmargin 8
# The bars use the whole width, so that each label has room.
stats dat using 2 nooutput
set xrange [-0.6:STATS_records - 0.4]
unset key
# "lab 3|GPU|naive": a line for each piece, then machine and origin.
lab_line(s) = strstrt(s, '|') ? s[1:strstrt(s, '|') - 1] . "\n" . lab_line(s[strstrt(s, '|') + 1:*]) : s
plot dat using 2:xtic(lab_line(strcol(1)) . "\n" . strcol(3) . "\n" . strcol(4)) lc rgb '#0072b2' fs pattern 2, \
     '' using 0:2:(sprintf('%.0f%%', 100 * $2)) with labels offset 0,0.8 notitle
