import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';

/**
 * Writes a synthetic "Annuaire de l'éducation" export of N collèges and lycées (default 70,000)
 * with the real header columns the import reads, for the import and GET /institution benchmark.
 * Usage: node --import tsx bench/schools/generate.ts [OUT.csv] [N]
 */
export const HEADER =
  'Identifiant_de_l_etablissement;Nom_etablissement;Type_etablissement;Statut_public_prive;Adresse_1;Adresse_2;Code_postal;Code_commune;Nom_commune;Code_departement;Telephone;Mail;position;latitude;longitude;etat';

const PEOPLE = [
  'Émile Zola',
  'Jean Moulin',
  'Marie Curie',
  'Victor Hugo',
  'Jules Ferry',
  'Louise Michel',
  'Jean Jaurès',
  'Simone Veil',
  'Albert Camus',
  'Pierre de Fermat',
  'Évariste Galois',
  'Sophie Germain',
  'Henri Poincaré',
  'George Sand',
  'Aimé Césaire',
  'Françoise Dolto',
  'René Descartes',
  'Blaise Pascal',
  'Jacques Prévert',
  'Antoine de Saint-Exupéry',
  'Olympe de Gouges',
  'Gustave Eiffel',
  'Hélène Boucher',
  'Joséphine Baker',
  'Condorcet',
  'Voltaire',
  'Molière',
  'Colette',
  'Camille Claudel',
];
const TOWNS: Array<[string, string, number, number]> = [
  ['Paris', '75', 48.8566, 2.3522],
  ['Marseille', '13', 43.2965, 5.3698],
  ['Lyon', '69', 45.764, 4.8357],
  ['Toulouse', '31', 43.6047, 1.4442],
  ['Nice', '06', 43.7102, 7.262],
  ['Nantes', '44', 47.2184, -1.5536],
  ['Strasbourg', '67', 48.5734, 7.7521],
  ['Montpellier', '34', 43.6108, 3.8767],
  ['Bordeaux', '33', 44.8378, -0.5792],
  ['Lille', '59', 50.6292, 3.0573],
  ['Rennes', '35', 48.1173, -1.6778],
  ['Reims', '51', 49.2583, 4.0317],
  ['Saint-Étienne', '42', 45.4397, 4.3872],
  ['Le Havre', '76', 49.4944, 0.1079],
  ['Grenoble', '38', 45.1885, 5.7245],
  ['Dijon', '21', 47.322, 5.0415],
  ['Angers', '49', 47.4784, -0.5632],
  ['Nîmes', '30', 43.8367, 4.3601],
  ['Clermont-Ferrand', '63', 45.7772, 3.087],
  ['Besançon', '25', 47.2378, 6.0241],
  ['Orléans', '45', 47.9029, 1.9093],
  ['Évreux', '27', 49.0241, 1.1508],
  ['Périgueux', '24', 45.1846, 0.7214],
  ['Ajaccio', '2A', 41.9192, 8.7386],
];
const STREETS = ['rue', 'avenue', 'boulevard', 'allée', 'place', 'chemin', 'impasse'];
const TYPES = ['Collège', 'Lycée', 'Collège', 'Lycée'];
const PREFIX: Record<string, string[]> = {
  Collège: ['Collège', 'Collège privé'],
  Lycée: ['Lycée', 'Lycée professionnel', 'Lycée polyvalent', 'Lycée agricole'],
};

/** A small deterministic PRNG so two runs give the same file. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function generateAnnuaire(out: string, n = 70_000): Promise<void> {
  const rand = rng(42);
  const pick = <T>(a: readonly T[]) => a[Math.floor(rand() * a.length)];
  const stream = createWriteStream(out, 'utf8');
  stream.write(`${HEADER}\n`);
  let previous: [number, number] = [46, 2];
  for (let i = 0; i < n; i++) {
    const type = pick(TYPES);
    const [town, dept, lat0, lng0] = pick(TOWNS);
    const name = `${pick(PREFIX[type])} ${pick(PEOPLE)}${i % 7 === 0 ? ` ${town}` : ''}`;
    // 1 in 20 shares its site with the previous school (collège and lycée on one campus).
    const shared = i > 0 && i % 20 === 0;
    const lat = shared ? previous[0] : +(lat0 + (rand() - 0.5) * 0.6).toFixed(6);
    const lng = shared ? previous[1] : +(lng0 + (rand() - 0.5) * 0.8).toFixed(6);
    previous = [lat, lng];
    const uai = `${String(i).padStart(7, '0')}${String.fromCharCode(65 + (i % 26))}`;
    const cp = `${dept.replace('2A', '20')}${String(Math.floor(rand() * 1000)).padStart(3, '0')}`;
    const street = `${1 + Math.floor(rand() * 200)} ${pick(STREETS)} ${pick(PEOPLE)}`;
    const mail = `ce.${uai.toLowerCase()}@ac-${town
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z]/g, '')}.fr`;
    const row = [
      uai,
      name,
      type,
      rand() < 0.8 ? 'Public' : 'Privé',
      street,
      '',
      cp,
      `${dept}${String(i % 1000).padStart(3, '0')}`,
      town,
      dept.padStart(3, '0'),
      '',
      mail,
      `"${lat}, ${lng}"`,
      lat,
      lng,
      'OUVERT',
    ];
    if (!stream.write(`${row.join(';')}\n`)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = path.resolve(process.argv[2] ?? 'bench/schools/annuaire-70000.csv');
  const n = Number(process.argv[3] ?? 70_000);
  await generateAnnuaire(out, n);
  console.log(`${n} lignes écrites dans ${out}`);
}
