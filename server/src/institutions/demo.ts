import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { institutions } from '../db/schema.js';

type DemoSchool = [name: string, address: string, lat: number, lng: number, confirmed: boolean, email?: string];

/**
 * ~30 schools over France for the demo: accents in names, two sites shared by a collège and a
 * lycée (identical coordinates, so the map spreads them), and a few unconfirmed proposals. Those
 * have no author, so only admins see them (decisions.md §29); no demo account is attached to one.
 */
const SCHOOLS: DemoSchool[] = [
  ['Lycée Louis-le-Grand', '123 rue Saint-Jacques, 75005 Paris', 48.84817, 2.34427, true, 'ce.0750655e@ac-paris.fr'],
  ['Lycée Henri-IV', '23 rue Clovis, 75005 Paris', 48.84625, 2.34781, true],
  ['Collège Henri-IV', '23 rue Clovis, 75005 Paris', 48.84625, 2.34781, true],
  ['Collège Émile Zola', '12 rue de la Paix, 75002 Paris', 48.8686, 2.3316, true],
  ['Lycée du Parc', '1 boulevard Anatole France, 69006 Lyon', 45.77197, 4.85292, true, 'ce.0690026d@ac-lyon.fr'],
  ['Collège Jean Moulin', '2 rue Jean Moulin, 69300 Caluire-et-Cuire', 45.79554, 4.84628, true],
  ['Lycée Thiers', '5 place du Lycée, 13001 Marseille', 43.29906, 5.38148, true],
  ['Collège Longchamp', '7 boulevard Longchamp, 13001 Marseille', 43.30318, 5.39042, false],
  ['Lycée Pierre-de-Fermat', '1 parvis des Jacobins, 31000 Toulouse', 43.60373, 1.44094, true],
  ['Collège Pierre-de-Fermat', '1 parvis des Jacobins, 31000 Toulouse', 43.60373, 1.44094, true],
  ['Lycée Clemenceau', '1 rue Georges Clemenceau, 44000 Nantes', 47.21854, -1.54598, true],
  ['Lycée Montaigne', '118 cours Victor Hugo, 33000 Bordeaux', 44.83389, -0.57397, true],
  ['Collège Cheverus', '73 rue du Mirail, 33000 Bordeaux', 44.83388, -0.56917, true],
  ['Lycée Faidherbe', '9 rue Armand Carrel, 59000 Lille', 50.62911, 3.07476, true],
  ['Lycée Kléber', '25 place de Bordeaux, 67000 Strasbourg', 48.59294, 7.75483, true],
  ['Collège Foch', '2 rue Pasteur, 67000 Strasbourg', 48.58021, 7.76401, false],
  ['Lycée Masséna', '2 avenue Félix Faure, 06000 Nice', 43.69807, 7.27722, true],
  ['Lycée Chateaubriand', '136 boulevard de Vitré, 35700 Rennes', 48.12125, -1.65726, true],
  ['Lycée Joffre', '150 allée de la Citadelle, 34000 Montpellier', 43.61451, 3.88375, true],
  ['Lycée Carnot', '16 boulevard Thiers, 21000 Dijon', 47.32197, 5.04896, true],
  ['Collège Saint-Exupéry', '10 rue de l’Aérodrome, 63000 Clermont-Ferrand', 45.77845, 3.10838, true],
  ['Lycée Champollion', 'Cours La Fontaine, 38000 Grenoble', 45.18815, 5.72535, true],
  ['Collège Berthelot', '17 rue des Écoles, 87000 Limoges', 45.83349, 1.26296, false],
  ['Lycée Corneille', '4 rue du Maulévrier, 76000 Rouen', 49.44565, 1.09578, true],
  ['Lycée Descartes', '10 rue des Minimes, 37000 Tours', 47.39304, 0.6848, true],
  ['Collège Sainte-Thérèse d’Avila', '5 rue de la Cathédrale, 51100 Reims', 49.25345, 4.03417, true],
  ['Lycée Jean-Jaurès', '12 avenue de la Gare, 81000 Albi', 43.92175, 2.14284, true],
  ['Collège des Îles du Ponant', 'Rue du Port, 29242 Ouessant', 48.45885, -5.09463, false],
  ['Lycée Pasquale Paoli', 'Avenue du Président Pierucci, 20250 Corte', 42.30279, 9.15069, true],
  ['Lycée Leconte-de-Lisle', 'Boulevard Mahé de la Bourdonnais, 97490 Saint-Denis', -20.8907, 55.4551, true],
];

/** The académie of a demo school from its postcode's department (decision 158: the jury's figures per académie). */
const ACADEMIES: Record<string, string> = {
  '75': 'Paris',
  '69': 'Lyon',
  '13': 'Aix-Marseille',
  '31': 'Toulouse',
  '81': 'Toulouse',
  '44': 'Nantes',
  '33': 'Bordeaux',
  '59': 'Lille',
  '67': 'Strasbourg',
  '06': 'Nice',
  '35': 'Rennes',
  '29': 'Rennes',
  '34': 'Montpellier',
  '21': 'Dijon',
  '63': 'Clermont-Ferrand',
  '38': 'Grenoble',
  '87': 'Limoges',
  '76': 'Normandie',
  '37': 'Orléans-Tours',
  '51': 'Reims',
  '20': 'Corse',
  '97': 'La Réunion',
};
/** A few private schools, so that the figures per sector have both (decision 158). */
const PRIVATE = new Set(['Collège Cheverus', 'Collège Sainte-Thérèse d’Avila', 'Collège Saint-Exupéry', 'Lycée Descartes']);

const academyOf = (address: string) => ACADEMIES[/\b(\d{2})\d{3}\b/.exec(address)?.[1] ?? ''] ?? null;

/** Inserts (or refreshes, when run twice) the demo schools and returns their ids in list order. */
export async function seedInstitutionsDemo(db: Db): Promise<string[]> {
  const uais = SCHOOLS.map((_, i) => `DEMO${String(i + 1).padStart(4, '0')}`);
  await db
    .insert(institutions)
    .values(
      SCHOOLS.map(([name, address, latitude, longitude, confirmed, email], i) => ({
        uai: uais[i],
        name,
        address,
        latitude,
        longitude,
        confirmed,
        email: email ?? null,
        sector: PRIVATE.has(name) ? 'private' : 'public',
        academy: academyOf(address),
      })),
    )
    .onConflictDoUpdate({
      target: institutions.uai,
      set: {
        name: sql`excluded.name`,
        address: sql`excluded.address`,
        confirmed: sql`excluded.confirmed`,
        sector: sql`excluded.sector`,
        academy: sql`excluded.academy`,
      },
    });
  const rows = await db.select({ id: institutions.id, uai: institutions.uai }).from(institutions).where(inArray(institutions.uai, uais));
  const byUai = new Map(rows.map((r) => [r.uai, r.id]));
  return uais.map((u) => byUai.get(u)!);
}
