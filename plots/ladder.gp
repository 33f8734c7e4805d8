# The ladder: each lab's reference as a share of its ceiling at one size, a
# bar a lab, lab 1 at the foot. Set by the caller: dat (lines
# "label,share,machine,origin"), out, fmt, title, subtitle. Bars lie
# across, so that each lab's name has a line of its own at the left and
# its share, machine and origin follow the bar's end.
load 'plots/style.gp'
set title figure_title noenhanced
set style fill pattern 2 border lc rgb '#000000'
stats dat using 2 nooutput
n = STATS_records
set yrange [0.4:n + 0.6]
# Room right of the longest bar for its words.
set xrange [0:1.55]
set xtics ('0' 0, '25%%' 0.25, '50%%' 0.5, '75%%' 0.75, '100%%' 1.0)
set xlabel 'share of its ceiling'
set grid noytics xtics
set ytics noenhanced nomirror scale 0
unset key
plot dat using ($2 / 2):($0 + 1):($2 / 2):(0.32):ytic(strcol(1)) with boxxyerror lc rgb '#0072b2', \
     '' using 2:($0 + 1):(sprintf(' %.0f%%  %s %s', 100 * $2, strcol(3), strcol(4))) with labels left noenhanced
