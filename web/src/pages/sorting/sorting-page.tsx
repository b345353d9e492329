import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Triage": placeholder until the screen is built. */
export function SortingPage() {
  return <UnderConstruction title="Triage" />;
}
