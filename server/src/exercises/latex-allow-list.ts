/**
 * What a formula of the LaTeX export may contain (decision 137): the control words that KaTeX renders AND that
 * the export's preamble (amsmath, amssymb, color, its own \providecommand macros) defines under pdflatex and
 * lualatex, less everything that defines, expands, groups or reads outside the formula (\def, \let, \csname,
 * \expandafter, \char, \verb, \begingroup, \message…) and the text accents pdflatex refuses in math (\c, \v…).
 * Anything else, \input, \openin, \write18, \directlua, \latelua, \pdffiledump, \catcode and \usepackage
 * included, is printed as visible text. Built once with KaTeX 0.19 and TeX Live 2022 (`\ifcsname` of each name
 * KaTeX's source spells, in both engines); a name added here must be a typesetting command of both.
 */
export const MATH_COMMANDS: ReadonlySet<string> = new Set(
  `
  AA And Bbb Bbbk Big Bigg Biggl Biggm Biggr Bigl Bigm Bigr Box Bumpeq C Cap Complex Cup Delta Diamond Doteq
  Downarrow Finv Game Gamma Harr Huge Im Join LARGE Lambda Large Larr Leftarrow Leftrightarrow Lleftarrow
  Longleftarrow Longleftrightarrow Longrightarrow Lrarr Lsh N Omega P Phi Pi Pr Psi Q R Rarr Re Reals
  Rightarrow Rrightarrow Rsh S Sigma Subset Supset Theta Uparrow Updownarrow Upsilon Vdash Vert Vvdash Xi Z aa
  above acute aleph allowbreak alpha amalg angle approx approxeq arccos arcsin arctan arctg arg argmax argmin
  ast asymp atop backepsilon backprime backsim backsimeq backslash bar barwedge because beta beth between bf
  big bigcap bigcirc bigcup bigg biggl biggm biggr bigl bigm bigodot bigoplus bigotimes bigr bigsqcup bigstar
  bigtriangledown bigtriangleup biguplus bigvee bigwedge binom blacklozenge blacksquare blacktriangle
  blacktriangledown blacktriangleleft blacktriangleright bm bmod bold boldsymbol bot bowtie boxdot boxed
  boxminus boxplus boxtimes brace brack breve bullet bumpeq cal cancel cap cdot cdotp cdots centerdot cfrac ch
  check checkmark chi choose circ circeq circlearrowleft circlearrowright circledR circledS circledast
  circledcirc circleddash clap clubsuit cnums colon color colorbox complement cong coprod copyright cos cosec
  cosh cot cotg coth csc ctg cup curlyeqprec curlyeqsucc curlyvee curlywedge curvearrowleft curvearrowright dag
  dagger daleth dashleftarrow dashrightarrow dashv dbinom ddag ddagger ddddot dddot ddot ddots deg degree delta
  det dfrac diagdown diagup diamond diamondsuit digamma dim displaystyle div divideontimes dot doteq doteqdot
  dotplus dots dotsb dotsc dotsi dotsm dotso doublebarwedge doublecap doublecup downarrow downdownarrows
  downharpoonleft downharpoonright ell emph empty emptyset enskip enspace epsilon eqcirc eqsim eqslantgtr
  eqslantless equiv eta eth exists exp fallingdotseq fbox fcolorbox flat footnotesize forall frac frak frown
  gamma gcd ge genfrac geq geqq geqslant gets gg ggg gggtr gimel gnapprox gneq gneqq gnsim grave gt gtrapprox
  gtrdot gtreqless gtreqqless gtrless gtrsim gvertneqq hArr hat hbar heartsuit hline hom hookleftarrow
  hookrightarrow hphantom hskip hslash hspace huge iff iiint iint imath impliedby implies in inf infin infty
  injlim int intercal intop iota isin it jmath kappa ker kern lArr lVert lambda land langle large larr lbrace
  lbrack lceil ldotp ldots le leadsto left leftarrow leftarrowtail leftharpoondown leftharpoonup leftleftarrows
  leftrightarrow leftrightarrows leftrightharpoons leftrightsquigarrow leftthreetimes leq leqq leqslant
  lessapprox lessdot lesseqgtr lesseqqgtr lessgtr lesssim lfloor lg lgroup lhd lim liminf limits limsup ll llap
  llbracket llcorner lll llless lmoustache ln lnapprox lneq lneqq lnot lnsim log longleftarrow
  longleftrightarrow longmapsto longrightarrow looparrowleft looparrowright lor lozenge lq lrarr lrcorner lt
  ltimes lvert lvertneqq maltese mapsto mathbb mathbf mathbin mathcal mathchoice mathclose mathellipsis
  mathfrak mathinner mathit mathnormal mathop mathopen mathord mathpunct mathrel mathring mathrm mathscr mathsf
  mathsterling mathstrut mathtt max measuredangle medspace mho mid middle min mkern mod models mp mskip mu
  multimap nLeftarrow nLeftrightarrow nRightarrow nVDash nVdash nabla natnums natural ncong ne nearrow neg
  negmedspace negthickspace negthinspace neq newline nexists ngeq ngeqq ngeqslant ngtr ni nleftarrow
  nleftrightarrow nleq nleqq nleqslant nless nmid nobreak nobreakspace nolimits normalsize not notin nparallel
  nprec npreceq nrightarrow nshortmid nshortparallel nsim nsubseteq nsubseteqq nsucc nsucceq nsupseteq
  nsupseteqq ntriangleleft ntrianglelefteq ntriangleright ntrianglerighteq nu nvDash nvdash nwarrow odot oint
  omega ominus operatorname operatornamewithlimits oplus oslash otimes over overbrace overleftarrow
  overleftrightarrow overline overparen overrightarrow overset owns parallel partial perp phantom phi pi
  pitchfork pm pmb pmod pod pounds prec precapprox preccurlyeq preceq precnapprox precneqq precnsim precsim
  prime prod projlim propto psi qquad quad rArr rVert raisebox rangle rarr rbrace rbrack rceil reals
  restriction rfloor rgroup rhd rho right rightarrow rightarrowtail rightharpoondown rightharpoonup
  rightleftarrows rightleftharpoons rightrightarrows rightsquigarrow rightthreetimes risingdotseq rlap rm
  rmoustache rq rrbracket rtimes rule rvert scriptscriptstyle scriptsize scriptstyle searrow sec setminus sf sh
  sharp shortmid shortparallel sigma sim simeq sin sinh small smallfrown smallint smallsetminus smallsmile
  smash smile space spadesuit sphericalangle sqcap sqcup sqrt sqsubset sqsubseteq sqsupset sqsupseteq square
  stackrel star subset subseteq subseteqq subsetneq subsetneqq substack succ succapprox succcurlyeq succeq
  succnapprox succneqq succnsim succsim sum sup supset supseteq supseteqq supsetneq supsetneqq surd swarrow tan
  tanh tau tbinom text textbf textcircled textcolor textcopyright textit textmd textnormal textregistered
  textrm textsf textstyle texttt textup tfrac tg th therefore theta thickapprox thicksim thickspace thinspace
  tilde times tiny to top triangle triangledown triangleleft trianglelefteq triangleq triangleright
  trianglerighteq tt twoheadleftarrow twoheadrightarrow ulcorner underbar underbrace underleftarrow
  underleftrightarrow underline underrightarrow underset unlhd unrhd uparrow updownarrow upharpoonleft
  upharpoonright uplus upsilon upuparrows urcorner vDash varDelta varGamma varLambda varOmega varPhi varPi
  varPsi varSigma varTheta varUpsilon varXi varepsilon varinjlim varkappa varliminf varlimsup varnothing varphi
  varpi varprojlim varpropto varrho varsigma varsubsetneq varsubsetneqq varsupsetneq varsupsetneqq vartheta
  vartriangle vartriangleleft vartriangleright vdash vdots vec vee veebar vert vphantom wedge widehat widetilde
  wp wr xi xleftarrow xrightarrow yen zeta
`
    .trim()
    .split(/\s+/),
);

/** Environments kept by \begin{…} and \end{…}: amsmath's that nest in $…$ and \[ \] (others are mapped first). */
export const MATH_ENVIRONMENTS: ReadonlySet<string> = new Set([
  'matrix',
  'pmatrix',
  'bmatrix',
  'Bmatrix',
  'vmatrix',
  'Vmatrix',
  'smallmatrix',
  'cases',
  'array',
  'subarray',
  'aligned',
  'alignedat',
  'gathered',
]);

/**
 * Control symbols (a backslash and one other character) kept: spaces, escaped specials, line break. Not the text
 * accents (\' \" \^…, which pdflatex refuses in math; \^ next to a caret would be TeX's character-code
 * notation) nor \@.
 */
export const MATH_SYMBOLS: ReadonlySet<string> = new Set([...'\\,;:!> {}|%#&_$/']);
