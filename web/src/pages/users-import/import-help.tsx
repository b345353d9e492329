import { Button, Group, List, Stack, Text } from '@mantine/core';
import { downloadCsv } from '../../lib/csv';

const TEMPLATE: string[][] = [
  ['E-mail', 'Prénom', 'Nom', 'Date de naissance', 'Classe', 'Genre', 'E-mail parent'],
  ['ada.lovelace@exemple.fr', 'Ada', 'Lovelace', '10/12/2011', '3e', 'F', 'parent.lovelace@exemple.fr'],
];

/** What the file holds, with a template to start from. */
export function ImportHelp() {
  return (
    <>
      <Text>
        Envoyez la liste de vos élèves (fichier CSV ou Excel .xlsx, une ligne par élève, la première ligne nommant les colonnes) : chaque
        élève reçoit un courriel pour choisir son mot de passe, puis complète son profil. Un élève qui a déjà un compte (même adresse
        e-mail) n’est ni dupliqué ni modifié : envoyer deux fois le même fichier ne crée rien de plus.
      </Text>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Colonnes attendues
        </Text>
        <List size="sm">
          <List.Item>E-mail, Prénom, Nom ;</List.Item>
          <List.Item>Date de naissance (JJ/MM/AAAA) ;</List.Item>
          <List.Item>Classe (5e, 4e, 3e, 2nde, 1re, Terminale ou Autre) ;</List.Item>
          <List.Item>Genre (F, M ou Autre) ;</List.Item>
          <List.Item>E-mail parent (facultatif).</List.Item>
        </List>
        <Group>
          <Button variant="light" size="xs" onClick={() => downloadCsv('modele-eleves.csv', TEMPLATE)}>
            Télécharger un modèle (CSV)
          </Button>
        </Group>
      </Stack>
    </>
  );
}
