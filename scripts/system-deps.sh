#!/usr/bin/env bash
# The Debian tools the tests read real files with (README « Deux commandes »): pdftoppm, qpdf, ocrmypdf,
# ImageMagick, img2pdf, libtiff, OpenJPEG, LaTeX, LibreOffice, fonts, and Chromium for the journeys.
# `npm test` and `.ci/run` both call it: it installs what is missing when it can (root and apt-get), and
# otherwise stops at once with the one command to run, before any test starts.
set -euo pipefail

need=()
has() { command -v "$1" >/dev/null 2>&1; }
has chromium || need+=(chromium)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
has pdflatex || need+=(texlive-latex-base lmodern)
# lualatex and fontspec: the subject export compiles with both engines (decision 55).
has lualatex || need+=(texlive-luatex)
kpsewhich fontspec.sty >/dev/null 2>&1 || need+=(texlive-latex-recommended)
has pdftoppm || need+=(poppler-utils)
# Scans made the way copiers make them, in the sheets tests: G4, JPEG 2000, img2pdf.
# A `convert` elsewhere on the PATH may be a stand-in that draws PNGs only: ask for Debian's own.
[ -x /usr/bin/convert ] || need+=(imagemagick)
has img2pdf || need+=(img2pdf)
has tiff2pdf || need+=(libtiff-tools)
has opj_compress || need+=(libopenjp2-tools)
# qpdf decrypts owner-password PDFs and rebuilds damaged ones at upload (decisions 105, 106).
has qpdf || need+=(qpdf)
# ocrmypdf makes scans searchable as schools do: its --optimize 1 wraps JPEG pages in Flate.
has ocrmypdf || need+=(ocrmypdf)
# Spreadsheet exports are read back by LibreOffice, as a school secretary opens them.
has soffice || need+=(libreoffice-calc-nogui)

[ ${#need[@]} -eq 0 ] && exit 0

command="apt-get update && apt-get install -y --no-install-recommends ${need[*]}"
if [ "$(id -u)" = 0 ] && has apt-get; then
  echo "Installation des outils Debian qui manquent aux tests : ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  exit 0
fi
if has sudo && has apt-get; then command="sudo ${command//&& apt-get/&& sudo apt-get}"; fi
{
  echo "Les tests lisent de vrais fichiers avec des outils Debian qui manquent ici : ${need[*]}"
  echo "Installez-les en administrateur (root), puis relancez « npm test » :"
  echo
  echo "  $command"
} >&2
exit 1
