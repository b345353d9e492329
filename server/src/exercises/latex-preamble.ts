/**
 * Compiles with pdflatex (utf8 input, T1 fonts, Latin Modern) and with lualatex or xelatex (fontspec,
 * Latin Modern in OpenType): under LuaTeX the T1 set-up prints « » and ’ as other letters, so each
 * engine gets its own fonts (decision 55). Then the macros KaTeX knows and LaTeX lacks, so that a
 * statement that renders on the web compiles here.
 */
export const PREAMBLE = String.raw`% Compile with pdflatex, lualatex or xelatex, in a folder of its own:
%   openin_any=p openout_any=p pdflatex -no-shell-escape -interaction=nonstopmode sujet.tex
%   openin_any=p openout_any=p lualatex -no-shell-escape -interaction=nonstopmode sujet.tex
% openin_any and openout_any at p: no absolute path, no ../, no dot file is read or written; -no-shell-escape:
% no \write18. The formulas keep only the commands KaTeX draws, so nothing here reads or writes another file
% (decision 137). Lua code, under lualatex, is bound by neither variable: a copy edited by hand or received
% from elsewhere is safer compiled with pdflatex.
\documentclass[11pt,a4paper]{article}
\usepackage{iftex}
\ifPDFTeX
  \usepackage[utf8]{inputenc}
  \usepackage[T1]{fontenc}
  \usepackage{lmodern}
\else
  \usepackage{fontspec}
\fi
\usepackage{amsmath,amssymb}
\usepackage{color}
\usepackage[margin=2.2cm]{geometry}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.6em}
\pagestyle{plain}
% Macros KaTeX knows and LaTeX does not.
\providecommand{\R}{\mathbb{R}}
\providecommand{\N}{\mathbb{N}}
\providecommand{\Z}{\mathbb{Z}}
\providecommand{\Q}{\mathbb{Q}}
\providecommand{\C}{\mathbb{C}}
\providecommand{\Reals}{\mathbb{R}}
\providecommand{\reals}{\mathbb{R}}
\providecommand{\natnums}{\mathbb{N}}
\providecommand{\Complex}{\mathbb{C}}
\providecommand{\cnums}{\mathbb{C}}
\providecommand{\degree}{{^\circ}}
\providecommand{\gt}{>}
\providecommand{\lt}{<}
\providecommand{\empty}{\emptyset}
\providecommand{\infin}{\infty}
\providecommand{\isin}{\in}
\providecommand{\bold}{\mathbf}
\providecommand{\Bbb}{\mathbb}
\providecommand{\bm}{\boldsymbol}
\providecommand{\mathscr}{\mathcal}
\providecommand{\rarr}{\rightarrow}
\providecommand{\larr}{\leftarrow}
\providecommand{\lrarr}{\leftrightarrow}
\providecommand{\Rarr}{\Rightarrow}
\providecommand{\Larr}{\Leftarrow}
\providecommand{\Lrarr}{\Leftrightarrow}
\providecommand{\rArr}{\Rightarrow}
\providecommand{\lArr}{\Leftarrow}
\providecommand{\hArr}{\Leftrightarrow}
\providecommand{\Harr}{\Leftrightarrow}
\providecommand{\llbracket}{\mathopen{[\mkern-3mu[}}
\providecommand{\rrbracket}{\mathclose{]\mkern-3mu]}}
\providecommand{\tg}{\operatorname{tg}}
\providecommand{\cotg}{\operatorname{cotg}}
\providecommand{\ctg}{\operatorname{ctg}}
\providecommand{\arctg}{\operatorname{arctg}}
\providecommand{\cosec}{\operatorname{cosec}}
\providecommand{\sh}{\operatorname{sh}}
\providecommand{\ch}{\operatorname{ch}}
\providecommand{\argmax}{\operatorname*{arg\,max}}
\providecommand{\argmin}{\operatorname*{arg\,min}}
\providecommand{\overparen}[1]{\overset{\frown}{#1}}
\providecommand{\cancel}[1]{#1}
`;
