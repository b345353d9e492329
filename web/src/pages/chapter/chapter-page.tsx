import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Chapitre": placeholder until the screen is built. */
export function ChapterPage() {
  return <UnderConstruction title="Chapitre" />;
}
