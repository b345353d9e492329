import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Gestion du groupe": placeholder until the screen is built. */
export function UsersPage() {
  return <UnderConstruction title="Gestion du groupe" />;
}
