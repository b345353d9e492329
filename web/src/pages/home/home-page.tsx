import { Accordion, Anchor, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePublicConfig } from '../../api/config';
import { paths } from '../../config/paths';
import { PageHeading } from '../../components/page-heading';
import { useSession } from '../../session/session-context';

/** The contact address, or a neutral wording while it loads or if the server cannot give it. */
function ContactEmail() {
  const { data } = usePublicConfig();
  if (!data?.contactEmail) return <>l’adresse de contact de l’équipe</>;
  return <Anchor href={`mailto:${data.contactEmail}`}>{data.contactEmail}</Anchor>;
}

/**
 * A visitor on a phone sees the sidebar's « Se connecter » and « S’inscrire » only behind the menu button: both are
 * here as buttons below the mobile breakpoint (decision 141). Also in the server's rendering (decision 117), which is
 * a visitor's.
 */
function VisitorActions() {
  const { user, token } = useSession();
  if (user || token) return null;
  return (
    <Group hiddenFrom="sm" grow data-testid="visitor-actions">
      <Button component={Link} to={paths.login}>
        Se connecter
      </Button>
      <Button component={Link} to={paths.signup} variant="outline">
        S’inscrire
      </Button>
    </Group>
  );
}

/** docs/product.md#spec-2 "Home": welcome text and three collapsible tutorials. */
export function HomePage() {
  return (
    <Stack maw={760}>
      <PageHeading>Accueil</PageHeading>
      <Text>
        Bienvenue sur Olympe, la plateforme de préparation aux olympiades de mathématiques. Vous y trouverez les tests en ligne, les
        épreuves sur papier et leurs corrections.
      </Text>
      <VisitorActions />

      <Title order={2} size="h3">
        Tutoriels
      </Title>
      <Accordion variant="separated">
        <Accordion.Item value="account">
          <Accordion.Control>Créer un compte</Accordion.Control>
          <Accordion.Panel>
            <List type="ordered" spacing="xs">
              <List.Item>
                Ouvrez la page{' '}
                <Anchor component={Link} to={paths.signup}>
                  S’inscrire
                </Anchor>{' '}
                et saisissez votre adresse e-mail.
              </List.Item>
              <List.Item>Cliquez sur le lien reçu par e-mail pour choisir votre mot de passe.</List.Item>
              <List.Item>Connectez-vous, puis complétez votre profil (dont votre établissement) pour accéder aux tests.</List.Item>
              <List.Item>
                Personnel scolaire : votre statut est vérifié manuellement. Écrivez à <ContactEmail /> en indiquant votre établissement.
              </List.Item>
            </List>
          </Accordion.Panel>
        </Accordion.Item>

        <Accordion.Item value="password">
          <Accordion.Control>Mot de passe oublié</Accordion.Control>
          <Accordion.Panel>
            <Text>
              Inscrivez-vous à nouveau avec la même adresse e-mail sur la page{' '}
              <Anchor component={Link} to={paths.signup}>
                S’inscrire
              </Anchor>
               : vous recevrez un nouveau lien pour choisir un nouveau mot de passe. Vos données sont conservées.
            </Text>
          </Accordion.Panel>
        </Accordion.Item>

        <Accordion.Item value="bug">
          <Accordion.Control>Signaler un bug</Accordion.Control>
          <Accordion.Panel>
            <Text>
              Écrivez à <ContactEmail /> en décrivant ce que vous faisiez, ce que vous attendiez et ce qui s’est passé. Indiquez la page
              concernée, votre navigateur et, si possible, joignez une capture d’écran.
            </Text>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>

      <Text>
        Pour la vérification manuelle du statut de personnel scolaire et pour signaler un bug, contactez <ContactEmail />.
      </Text>
    </Stack>
  );
}
