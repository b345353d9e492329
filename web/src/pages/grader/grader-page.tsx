import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Correction": placeholder until the screen is built. */
export function GraderPage() {
  return <UnderConstruction title="Correction" />;
}
