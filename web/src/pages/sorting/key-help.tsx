import { Kbd, Stack, Text } from '@mantine/core';

/** The workbench's shortcuts, listed under its buttons. */
export function KeyHelp() {
  const rows: Array<[string[], string]> = [
    [['→', '←'], 'page suivante, précédente'],
    [['↑', '↓'], 'exercice précédent, suivant'],
    // A focused box or button keeps Space for itself, as a keyboard user expects (sorting-state.ts).
    [['Espace'], 'tourner de 90° (sauf sur une case à cocher, un bouton ou un champ, où Espace garde son rôle)'],
    [['/'], 'chercher un élève (Entrée pour choisir)'],
    [['B'], 'page blanche'],
    [['Entrée'], 'sur la dernière page : sauvegarder'],
  ];
  return (
    <Stack gap={4} aria-label="Raccourcis clavier" role="group">
      <Text size="sm" fw={500}>
        Raccourcis clavier
      </Text>
      {rows.map(([keys, text]) => (
        <Text size="sm" key={text} c="gray.8">
          {keys.map((k, i) => (
            <span key={k}>
              {i > 0 ? ' / ' : null}
              <Kbd>{k}</Kbd>
            </span>
          ))}{' '}
          : {text}
        </Text>
      ))}
    </Stack>
  );
}
