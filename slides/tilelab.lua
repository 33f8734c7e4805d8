--[[
tilelab.lua: the pandoc filter that fills a deck with the kit's own numbers.

A deck names what it wants; this filter finds it in the figures that
plots/figures.sh drew (metadata `figures`: their folder, with figures.tsv)
and in the kit's files, so that a new recorded run changes the slides and
nothing is pasted by hand.

  ![](figure:lab02){height=62%}          the figure, and a line naming its data
  ::: {.if-data figure=lab03}            kept only when that figure was drawn
  ::: {.if-no-data figure=lab03}         kept only when it was not
  ::: {.bench-table figure=lab02 sizes="1024 4096 4097x8191"}
                                         the bench at those sizes, a row each
  ::: {.ladder-table labs="01 02 03" size=4096}
                                         each lab's reference at one size
  ::: {.ladder-table ops="transpose" size=4096}
                                         the same for every lab of labs/labs.mk
                                         computing one of ops (LABS_TSV, the
                                         table of labs make slides passes)
  ::: {.ladder-ideas}                    every lab of the table, its change and
                                         lesson (labNN_change, labNN_lesson)
  ::: {.csv-table file=cpu-cache.csv header="lab|D1 misses|LL misses"}
                                         a table the figures wrote, as it is
  ```{.cpp include=harness/core/include/lab.h from="^void transpose" to=";"}
  ```                                    those lines of a kit file the student
                                         does not edit (Lua patterns; drop:
                                         lines to leave out)
  ```{.cpp stub=labs/03-gpu-naive/transpose.cu}
  __global__ void ...                    lines of a stub, written in the deck:
  ```                                    labs/ holds the student's own code
                                         once they start, so the deck keeps
                                         the stub's lines (tests/slides_test.sh
                                         checks they still match the stub)

Every code block must fit a slide at a size a lecture hall can read: at
most MAX_COLUMNS characters a line and MAX_LINES lines. A deck that asks for
something that is not there fails the build, naming what and where.
]]

local MAX_COLUMNS = 64
local MAX_LINES = 16

local figures_dir = "build/slides/figures"
local deck = "deck"
local drawn = {} -- figure name -> { title = ..., sources = { ... } }

local function fail(message)
    io.stderr:write("slides: " .. deck .. ": " .. message .. "\n")
    os.exit(1)
end

local function read_lines(path)
    local f = io.open(path, "r")
    if not f then
        return nil
    end
    local lines = {}
    for line in f:lines() do
        lines[#lines + 1] = line
    end
    f:close()
    return lines
end

local function split(s, sep)
    local out = {}
    for field in (s .. sep):gmatch("(.-)" .. sep:gsub("%p", "%%%0")) do
        out[#out + 1] = field
    end
    return out
end

local function words(s)
    local out = {}
    for w in (s or ""):gmatch("%S+") do
        out[#out + 1] = w
    end
    return out
end

local function load_figures(meta)
    if meta.figures then
        figures_dir = pandoc.utils.stringify(meta.figures)
    end
    if meta.deck then
        deck = pandoc.utils.stringify(meta.deck)
    end
    local lines = read_lines(figures_dir .. "/figures.tsv")
    if not lines then
        fail("no " .. figures_dir .. "/figures.tsv: the figures are drawn by make slides first")
    end
    for _, line in ipairs(lines) do
        local f = split(line, "\t")
        drawn[f[1]] = { title = f[2], sources = words(f[3]) }
    end
end

-- A figure the deck cannot do without.
local function drawn_figure(name)
    return drawn[name] or fail("no figure " .. name .. " was drawn: guard it with .if-data")
end

local function required(div, key)
    local v = div.attributes[key]
    if not v or v == "" then
        fail("a ." .. div.classes[1] .. " block needs " .. key .. "=...")
    end
    return v
end

-- A table takes the width its cells need: pandoc would share the slide's
-- width out among the columns of a long row, and wrap "lab 3 naive". A bench
-- table whose header is wider than a slide keeps the widths it was given (wrapped).
local function natural_widths(t)
    if t.attr and t.attr.classes:includes("wrapped") then
        return t
    end
    for i, spec in ipairs(t.colspecs) do
        t.colspecs[i] = { spec[1] }
    end
    return t
end

local function markdown(text)
    return pandoc.read(text, "markdown").blocks
end

-- The kit's CSVs are read by csv-rows (harness/tools/csv_rows.c, CSV_ROWS,
-- which make slides passes): the filter splits only the tab-separated lines
-- it prints, never a CSV.
local function quoted(s)
    return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- csv-rows with the words of args; its lines.
local function csv_rows(args)
    local tool = os.getenv("CSV_ROWS")
    if not tool or tool == "" then
        tool = "build/csv-rows"
    end
    local command = quoted(tool)
    for _, word in ipairs(args) do
        command = command .. " " .. quoted(word)
    end
    local p = io.popen(command .. " 2>/dev/null")
    local lines = {}
    for line in p:lines() do
        lines[#lines + 1] = line
    end
    if not p:close() then
        fail("cannot read " .. args[#args] .. " (" .. command .. ")")
    end
    return lines
end

-- A run's facts, its "# key: value" lines: machine, date, tunables, lab.
local function facts_of(path)
    local meta = {}
    for _, line in ipairs(csv_rows({ "--facts", path })) do
        local key, value = line:match("^([^\t]*)\t(.*)$")
        meta[key] = value
    end
    return meta
end

-- The facts a figure's sources share: a machine, a day or tunables that one of
-- them does not share is no fact of the figure (the ladder's runs come from
-- several machines, a sweep's each with its own tunables), and several_machines
-- says that each line or bar has its own, which the figure names.
local function shared_facts(paths)
    local shared = nil
    local machines = {}
    for _, path in ipairs(paths) do
        local meta = facts_of(path)
        if meta.date then
            meta.date = meta.date:sub(1, 10)
        end
        machines[meta.machine or ""] = true
        if not shared then
            shared = meta
        else
            for _, key in ipairs({ "machine", "date", "tunables" }) do
                if shared[key] ~= meta[key] then
                    shared[key] = nil
                end
            end
        end
    end
    shared = shared or {}
    shared.several_machines = next(machines, next(machines)) ~= nil
    return shared
end

-- A bench CSV: its facts, and its rows as records of the columns the tables
-- show; each row's label and role its own, or for a run recorded before the
-- bench wrote them, the bench's table's (VARIANTS: build/bench/variants.csv).
local BENCH_COLUMNS = { "variant", "label", "role", "unit", "rows", "cols", "depth?", "reps", "median_s",
    "rate", "share_of_ceiling" }
local function read_csv(path)
    local args = { "--header" }
    local variants = os.getenv("VARIANTS")
    if variants and variants ~= "" then
        args = { "--header", "--variants", variants }
    end
    args[#args + 1] = path
    for _, column in ipairs(BENCH_COLUMNS) do
        args[#args + 1] = column
    end
    local lines = csv_rows(args)
    local header, rows = split(lines[1] or "", "\t"), {}
    for i = 2, #lines do
        local row, fields = {}, split(lines[i], "\t")
        for k, h in ipairs(header) do
            row[h] = fields[k]
        end
        rows[#rows + 1] = row
    end
    return { meta = facts_of(path), rows = rows }
end

local function shape_of(row, csv)
    -- An operation of one dimension (the bench's "# dims: 1"): its size is a count, rows x
    -- cols of it, shown as a power of two where it is one.
    if csv and (csv.meta.dims or ""):match("^1 ") then
        local n = math.tointeger(tonumber(row.rows) * tonumber(row.cols))
        local e = n and n > 0 and math.log(n, 2)
        if e and 2 ^ math.floor(e + 0.5) == n then
            return "2^" .. math.floor(e + 0.5) .. "^"
        end
        return tostring(n or row.cols)
    end
    if row.unit == "GFLOP/s" then
        if row.rows == row.cols and row.cols == row.depth then
            return row.rows .. "^3^"
        end
        return row.rows .. "x" .. row.cols .. "x" .. row.depth
    end
    if row.rows == row.cols then
        return row.rows .. "^2^"
    end
    return row.rows .. "x" .. row.cols
end

local function matches(row, size)
    local r, c = size:match("^(%d+)x(%d+)$")
    if r then
        return row.rows == r and row.cols == c
    end
    return row.rows == size and row.cols == size
end

local function number(x)
    x = tonumber(x)
    if not x then
        return "--"
    end
    if x == math.floor(x) and x < 1e6 then
        return string.format("%d", x)
    end
    if x >= 100 then
        return string.format("%.0f", x)
    elseif x >= 10 then
        return string.format("%.1f", x)
    elseif x >= 1 then
        return string.format("%.2f", x)
    end
    return string.format("%.3g", x)
end

local function percent(x)
    x = tonumber(x)
    return x and string.format("%.0f %%", 100 * x) or "--"
end

-- The machine line of a source, and whether it was run here or recorded:
-- csv-rows --origin says (csv.h decides, for the figures too).
local function origin(path, csv)
    local where = csv_rows({ "--origin", path })[1] == "here" and "run here on " or "recorded on "
    return where .. (csv.meta.machine or "an unnamed machine")
end

local function source_line(paths, csv)
    -- "data: plots/data/lab03.csv, lab04.csv": each folder named once
    local names, folder = {}, nil
    for _, path in ipairs(paths) do
        local dir, file = path:match("^(.*/)([^/]*)$")
        if not dir then
            dir, file = "", path
        end
        names[#names + 1] = (dir == folder) and file or path
        folder = dir
    end
    local text = "data: " .. table.concat(names, ", ")
    if csv and csv.meta.several_machines then
        text = text .. "; from several machines: the figure names each"
    elseif csv then
        text = text .. "; " .. origin(paths[#paths], csv)
        if csv.meta.date then
            text = text .. ", " .. csv.meta.date:sub(1, 10)
        end
        -- with which tunables each side ran ("student BLOCK=32; reference BLOCK=128")
        local tunables = (csv.meta.tunables or ""):gsub("%-D", "")
        if tunables ~= "" and not tunables:match("^student none; reference none$") then
            text = text .. "; " .. tunables
        end
    end
    return pandoc.Para({ pandoc.RawInline("latex", "\\tlsource{"), pandoc.Str(text),
        pandoc.RawInline("latex", "}") })
end

local function bench_table(div)
    local name = required(div, "figure")
    local fig = drawn_figure(name)
    local path = fig.sources[#fig.sources]
    local csv = read_csv(path)
    local sizes = words(required(div, "sizes"))
    -- Every variant but the student's, which the deck cannot know.
    local variants, labels, seen = {}, {}, {}
    for _, row in ipairs(csv.rows) do
        local label, role = row.label, row.role
        if not seen[row.variant] and role ~= "student" then
            seen[row.variant] = true
            variants[#variants + 1] = row.variant
            labels[row.variant] = label
        end
    end
    local unit = csv.rows[1] and csv.rows[1].unit or "GB/s"
    local head = { "size" }
    local rule = { "---" }
    for _, v in ipairs(variants) do
        head[#head + 1] = labels[v]
        rule[#rule + 1] = "---:"
    end
    head[#head + 1] = "reference / ceiling"
    rule[#rule + 1] = "---:"
    local function rows_for(wanted)
        local out = { "| " .. table.concat(head, " | ") .. " |", "|" .. table.concat(rule, "|") .. "|" }
        for _, size in ipairs(wanted) do
            local cells, label, share = {}, nil, nil
            for _, v in ipairs(variants) do
                local value = "--"
                for _, row in ipairs(csv.rows) do
                    if row.variant == v and matches(row, size) then
                        value = number(row.rate)
                        label = shape_of(row, csv)
                        if v == "reference" then
                            share = percent(row.share_of_ceiling)
                        end
                    end
                end
                cells[#cells + 1] = value
            end
            -- A size the run did not measure (make lab1 bench SIZES=1024) is left out.
            if label then
                out[#out + 1] = "| " .. label .. " | " .. table.concat(cells, " | ") .. " | " .. (share or "--") .. " |"
            end
        end
        return out
    end
    local out = rows_for(sizes)
    if #out == 2 then
        -- A run of other sizes (make lab1 bench SIZES=64): its own sizes, at most six.
        local own, have = {}, {}
        for _, row in ipairs(csv.rows) do
            local size = row.rows .. "x" .. row.cols
            if not have[size] and #own < 6 then
                have[size] = true
                own[#own + 1] = size
            end
        end
        out = rows_for(own)
    end
    if #out == 2 then
        fail(path .. " has no rows to show")
    end
    local blocks = markdown(table.concat(out, "\n") .. "\n\n: " .. unit .. ", median of " ..
        (csv.rows[1] and csv.rows[1].reps or "?") .. " runs")
    -- A header wider than a slide (many variants, long labels) wraps its headings in
    -- columns of the slide's width, each as wide as its longest cell or heading word
    -- needs: without widths LaTeX sets each heading on one line, into the next.
    local tbl = blocks[1]
    if tbl and tbl.t == "Table" and #out[1] > 72 then
        local need, total = {}, 0
        for _, line in ipairs(out) do
            if not line:match("^|%-") then
                local i = 0
                for cell in line:gmatch("|([^|]*)") do
                    i = i + 1
                    for word in cell:gmatch("%S+") do
                        need[i] = math.max(need[i] or 0, #word)
                    end
                end
            end
        end
        for i = 1, #tbl.colspecs do
            need[i] = (need[i] or 1) + 2
            total = total + need[i]
        end
        for i = 1, #tbl.colspecs do
            tbl.colspecs[i] = { tbl.colspecs[i][1], need[i] / total }
        end
        tbl.attr = pandoc.Attr("", { "wrapped" })
    end
    blocks[#blocks + 1] = source_line({ path }, csv)
    return blocks
end

-- The filter's one reader of the table of labs (LABS_TSV, which make slides
-- passes; harness/tools/labs.c writes it from labs/labs.mk): a record a lab,
-- in the table's order, its fields by their columns' names (lab, dir, kind,
-- op, file, tunables, title, baseline).
local function read_labs(why)
    local path = os.getenv("LABS_TSV")
    if not path or path == "" then
        fail(why .. " names the labs through LABS_TSV, which make slides passes: build the decks with make slides")
    end
    local lines = csv_rows({ "--header", path })
    local header, labs = split(lines[1] or "", "\t"), {}
    for i = 2, #lines do
        local lab, fields = {}, split(lines[i], "\t")
        for k, name in ipairs(header) do
            lab[name] = fields[k] or ""
        end
        labs[#labs + 1] = lab
    end
    return labs
end

-- The numbers of the labs that compute one of OPS, in the table's order.
local function labs_of(ops)
    local want, out = {}, {}
    for _, op in ipairs(words(ops)) do
        want[op] = true
    end
    for _, lab in ipairs(read_labs("ops=\"" .. ops .. "\"")) do
        if want[lab.op] then
            out[#out + 1] = lab.lab
        end
    end
    return out
end

local function ladder_table(div)
    local size = required(div, "size")
    local labs = div.attributes.ops and labs_of(div.attributes.ops) or words(required(div, "labs"))
    local out = {
        "| lab | machine | ms | GB/s | of its ceiling | step |",
        "|:---|:---|---:|---:|---:|---:|",
    }
    local paths, previous = {}, nil
    for _, lab in ipairs(labs) do
        local fig = drawn["lab" .. lab]
        if fig then
            local path = fig.sources[#fig.sources]
            local csv = read_csv(path)
            for _, row in ipairs(csv.rows) do
                if row.variant == "reference" and matches(row, size) then
                    local title = fig.title:match("^lab %d+, (.-) %(") or
                        (csv.meta.lab or ""):match("%((.*)%)") or ""
                    local machine = (csv.meta.machine or "?"):gsub(",.*", ""):gsub(" %(.*%)", "")
                    local rate = tonumber(row.rate)
                    local step = previous and string.format("%.1fx", rate / previous) or ""
                    out[#out + 1] = string.format("| %d %s | %s | %s | %s | %s | %s |",
                        tonumber(lab), title, machine, number(1000 * tonumber(row.median_s)),
                        number(rate), percent(row.share_of_ceiling), step)
                    previous = rate
                    paths[#paths + 1] = path
                end
            end
        end
    end
    if #paths == 0 then
        fail("no lab of " .. table.concat(labs, " ") .. " has a recorded run at " .. size)
    end
    local blocks = markdown(table.concat(out, "\n") .. "\n\n: the reference of each lab at " ..
        size .. "x" .. size .. "; step: GB/s over the lab above")
    blocks[#blocks + 1] = source_line(paths, nil)
    return blocks
end

-- Every lab of the table, a row each: its number and title, and what labs.mk says it
-- changes and teaches (labNN_change, labNN_lesson), so that a lab added there has
-- its row, and a lab without the two fails the build, named.
local function ladder_ideas(div)
    local out = { "| lab | the change | the lesson |", "|:--|:------|:------|" }
    for _, lab in ipairs(read_labs("the ladder of ideas")) do
        for _, field in ipairs({ "change", "lesson" }) do
            if (lab[field] or "") == "" then
                fail(string.format("lab %d (%s) has no lab%s_%s in labs/labs.mk: the overview's ladder " ..
                    "gives each lab's change and lesson", tonumber(lab.lab), lab.title, lab.lab, field))
            end
        end
        local cells = {}
        -- the title without its parenthesis: "(extension)" is the lesson's to say, in a column that fits
        local title = lab.title:gsub(" %(.*%)$", "")
        for i, text in ipairs({ tonumber(lab.lab) .. " " .. title, lab.change, lab.lesson }) do
            cells[i] = text:gsub("|", "\\|")
        end
        out[#out + 1] = "| " .. table.concat(cells, " | ") .. " |"
    end
    return markdown(table.concat(out, "\n"))
end

local function csv_table(div)
    local file = required(div, "file")
    local header = split(required(div, "header"), "|")
    local lines = read_lines(figures_dir .. "/" .. file) or
        fail("no " .. file .. " among the figures: guard this block with .if-data")
    local rule = { ":---" }
    for i = 2, #header do
        rule[i] = "---:"
    end
    local out = { "| " .. table.concat(header, " | ") .. " |", "|" .. table.concat(rule, "|") .. "|" }
    for _, line in ipairs(lines) do
        -- a figure's "# columns:" line: the deck's header says it for the slide
        if line:match("^#") then goto next_line end
        local fields = split(line, ",")
        if #fields ~= #header then
            fail(file .. " has " .. #fields .. " columns, the header " .. #header)
        end
        for i = 2, #fields do
            fields[i] = number(fields[i])
        end
        out[#out + 1] = "| " .. table.concat(fields, " | ") .. " |"
        ::next_line::
    end
    local caption = div.attributes.caption and ("\n\n: " .. div.attributes.caption) or ""
    local blocks = markdown(table.concat(out, "\n") .. caption)
    local name = div.attributes.figure
    if name and drawn[name] then
        blocks[#blocks + 1] = source_line(drawn[name].sources, nil)
    end
    return blocks
end

local divs -- the filter for Divs, below: a kept block's own Divs need it too

local function guarded(div, want)
    local name = required(div, "figure")
    if (drawn[name] ~= nil) == want then
        return pandoc.walk_block(pandoc.Div(div.content), divs).content
    end
    return {}
end

local function include(block)
    local path = block.attributes.include
    if path:match("^labs/") then
        fail("include=" .. path .. ": a student's file, which holds their own code once they start; " ..
            "write the stub's lines in the deck, in a {.cpp stub=" .. path .. "} block")
    end
    local lines = read_lines(path) or fail("cannot read " .. path .. " for a code block")
    local from, to, drop = block.attributes.from, block.attributes.to, block.attributes.drop
    local out, inside = {}, from == nil
    for _, line in ipairs(lines) do
        if not inside and line:match(from) then
            inside = true
        end
        if inside and not (drop and line:match(drop)) then
            out[#out + 1] = line
            if to and #out > 1 and line:match(to) then
                break
            end
        end
    end
    if #out == 0 then
        fail("no line of " .. path .. " matches from=\"" .. from .. "\"")
    end
    block.text = table.concat(out, "\n")
    for _, key in ipairs({ "include", "from", "to", "drop" }) do
        block.attributes[key] = nil
    end
    return block
end

local function fits(block)
    local n = 0
    for line in (block.text .. "\n"):gmatch("(.-)\n") do
        n = n + 1
        local width = utf8.len(line) or #line
        if width > MAX_COLUMNS then
            fail(string.format("code line %d is %d characters, more than the %d that fit a slide " ..
                "at lecture size:\n  %s", n, width, MAX_COLUMNS, line))
        end
    end
    if n > MAX_LINES then
        fail(string.format("a code block of %d lines; at most %d fit a slide at lecture size " ..
            "(it begins: %s)", n, MAX_LINES, block.text:match("^[^\n]*")))
    end
end

local content = {
    Div = function(div)
        local class = div.classes[1]
        if class == "if-data" then
            return guarded(div, true)
        elseif class == "if-no-data" then
            return guarded(div, false)
        elseif class == "bench-table" then
            return bench_table(div)
        elseif class == "ladder-table" then
            return ladder_table(div)
        elseif class == "ladder-ideas" then
            return ladder_ideas(div)
        elseif class == "csv-table" then
            return csv_table(div)
        end
    end,
    CodeBlock = function(block)
        if block.attributes.include then
            block = include(block)
        end
        block.attributes.stub = nil
        fits(block)
        return block
    end,
    Para = function(para)
        local img = para.content[1]
        if #para.content ~= 1 or img.t ~= "Image" or not img.src:match("^figure:") then
            return nil
        end
        local name = img.src:sub(8)
        local fig = drawn_figure(name)
        img.src = figures_dir .. "/" .. name .. ".pdf"
        img.caption = {}
        local csv = nil
        local last = fig.sources[#fig.sources]
        if last and last:match("%.csv$") then
            csv = { meta = shared_facts(fig.sources) }
        end
        return { pandoc.Para({ pandoc.RawInline("latex", "\\centering "), img }), source_line(fig.sources, csv) }
    end,
}

divs = { Div = content.Div, traverse = "topdown" }

-- Divs first, from the outside in (an .if-data block may hold a table that
-- exists only with the data), then what is left.
return {
    { Meta = load_figures },
    divs,
    { CodeBlock = content.CodeBlock, Para = content.Para, Table = natural_widths },
}
