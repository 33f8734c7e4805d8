# Grouped bars: one group per row of dat ("label,value1,value2,..."), one
# bar per column, named by the caller's series (space-separated, '_' for
# a space). Set by the caller: dat, out, fmt, title, ylabel, series.
load 'plots/style.gp'
set title title noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill pattern border lc rgb '#000000'
set boxwidth 0.9
set yrange [0:*]
set ylabel ylabel noenhanced
set xtics noenhanced
plot for [i = 1:words(series)] dat using (column(i + 1)):xtic(1) fs pattern (i == 1 ? 2 : i == 2 ? 4 : 5) \
     lc rgb (i == 1 ? '#0072b2' : i == 2 ? '#d55e00' : '#009e73') title system('echo ' . word(series, i) . ' | tr _ " "')
