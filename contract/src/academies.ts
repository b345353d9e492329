/**
 * The académie of a school from its UAI (decision 158): the UAI's first three characters are its department
 * ('075' Paris, '620' and '720' Corse, '971'… overseas). Schema-free. Null for a department outside the table.
 */
const DEPARTMENTS_BY_ACADEMY: Record<string, string> = {
  'Aix-Marseille': '004 005 013 084',
  Amiens: '002 060 080',
  Besançon: '025 039 070 090',
  Bordeaux: '024 033 040 047 064',
  'Clermont-Ferrand': '003 015 043 063',
  Corse: '620 720',
  Créteil: '077 093 094',
  Dijon: '021 058 071 089',
  Grenoble: '007 026 038 073 074',
  Guadeloupe: '971',
  Guyane: '973',
  'La Réunion': '974',
  Lille: '059 062',
  Limoges: '019 023 087',
  Lyon: '001 042 069',
  Martinique: '972',
  Mayotte: '976',
  Montpellier: '011 030 034 048 066',
  'Nancy-Metz': '054 055 057 088',
  Nantes: '044 049 053 072 085',
  Nice: '006 083',
  Normandie: '014 027 050 061 076',
  'Orléans-Tours': '018 028 036 037 041 045',
  Paris: '075',
  Poitiers: '016 017 079 086',
  Reims: '008 010 051 052',
  Rennes: '022 029 035 056',
  Strasbourg: '067 068',
  Toulouse: '009 012 031 032 046 065 081 082',
  Versailles: '078 091 092 095',
};

const ACADEMY_OF_DEPARTMENT = new Map(
  Object.entries(DEPARTMENTS_BY_ACADEMY).flatMap(([academy, departments]) => departments.split(' ').map((d) => [d, academy] as const)),
);

/** The académie of a UAI (« 0751234A » → « Paris »), or null when unknown. */
export function academyOfUai(uai: string | null | undefined): string | null {
  if (!uai) return null;
  return ACADEMY_OF_DEPARTMENT.get(uai.trim().slice(0, 3).toUpperCase()) ?? null;
}
