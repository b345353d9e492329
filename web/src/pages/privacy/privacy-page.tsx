import { Anchor, List, Stack, Table, Text, Title } from '@mantine/core';
import { usePublicConfig } from '../../api/config';
import { PageHeading } from '../../components/page-heading';

/** The contact address from the server's configuration (CONTACT_EMAIL). */
function Contact() {
  const { data } = usePublicConfig();
  if (!data?.contactEmail) return <>l’adresse de contact de l’équipe (page d’accueil)</>;
  return <Anchor href={`mailto:${data.contactEmail}`}>{data.contactEmail}</Anchor>;
}

/** What is kept, why, for how long, who sees it (docs/operations.md "Données personnelles"). */
const KEPT: Array<{ what: string; why: string }> = [
  {
    what: 'Adresse e-mail, e-mails des parents, nom, prénom',
    why: 'Vous connecter, vous envoyer les liens de connexion, identifier votre copie',
  },
  {
    what: 'Date de naissance, genre, classe, établissement',
    why: 'Ouvrir les épreuves de votre catégorie, organiser les centres d’examen',
  },
  { what: 'Réponses, copies PDF, notes et commentaires', why: 'Corriger les épreuves et publier les résultats' },
  {
    what: 'Adresse IP et pertes de focus de la fenêtre pendant une épreuve chronométrée',
    why: 'Garantir l’équité de l’épreuve (détection de la fraude)',
  },
  { what: 'Date de dernière connexion', why: 'Supprimer les comptes inactifs' },
];

export function PrivacyPage() {
  return (
    <Stack maw={760}>
      <PageHeading>Données personnelles</PageHeading>
      <Text>
        Olympe conserve le strict nécessaire pour organiser les épreuves, les corriger et publier les résultats. Aucune donnée n’est vendue
        ni utilisée à des fins publicitaires, et aucun outil de mesure d’audience n’est installé.
      </Text>

      <Title order={2} size="h3">
        Ce qui est conservé, et pourquoi
      </Title>
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Donnée</Table.Th>
            <Table.Th scope="col">Raison</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {KEPT.map((row) => (
            <Table.Tr key={row.what}>
              <Table.Td>{row.what}</Table.Td>
              <Table.Td>{row.why}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text>Votre mot de passe n’est jamais conservé en clair : seule une empreinte chiffrée l’est.</Text>

      <Title order={2} size="h3">
        Qui y a accès
      </Title>
      <List spacing="xs">
        <List.Item>Vous-même, depuis la page Mon profil.</List.Item>
        <List.Item>Les enseignants de votre établissement, pour les inscriptions et les copies de leurs élèves.</List.Item>
        <List.Item>Les correcteurs de l’association, pour corriger les copies.</List.Item>
        <List.Item>Les administrateurs de la plateforme.</List.Item>
      </List>

      <Title order={2} size="h3">
        Combien de temps
      </Title>
      <Text>
        Les données restent le temps des épreuves de l’année et de la publication des résultats. Un compte sans activité depuis trois années
        scolaires est supprimé ; s’il contient des réponses, il est anonymisé : nom, e-mails, date de naissance, établissement et adresses
        IP sont effacés, les copies PDF aussi, et seules des réponses et des notes sans nom restent pour les statistiques.
      </Text>

      <Title order={2} size="h3">
        Vos droits
      </Title>
      <Text>
        Vous pouvez corriger vos informations sur la page Mon profil. Pour obtenir une copie de toutes vos données, ou demander leur
        suppression, écrivez à <Contact />. Un administrateur vous répond dans un délai d’un mois. Si vous avez moins de 15 ans, un parent
        peut faire ces demandes pour vous. Vous pouvez aussi adresser une réclamation à la CNIL.
      </Text>
    </Stack>
  );
}
