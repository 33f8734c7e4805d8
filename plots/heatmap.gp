# A heatmap of dat ("x,y,value" rows) on log-2 axes, the value printed in
# each cell. Set by the caller: dat, out, fmt, title, xlabel, ylabel, cblabel.
load 'plots/style.gp'
set title figure_title noenhanced
set logscale xy 2
set xlabel xlabel noenhanced
set ylabel ylabel noenhanced
set cblabel cblabel noenhanced
set palette defined (0 '#ffffff', 1 '#9ecae1', 2 '#3182bd')
set cbrange [0:1]
set cbtics ('0' 0, '50%%' 0.5, '100%%' 1)
set style fill solid 1.0 border lc rgb '#808080'
unset key
r = sqrt(2)
plot dat using 1:2:($1 / r):($1 * r):($2 / r):($2 * r):3 with boxxyerror fc palette, \
     '' using 1:2:(sprintf('%.0f%%', 100 * $3)) with labels tc rgb '#000000'
