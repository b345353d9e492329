import { Anchor, Text } from '@mantine/core';
import { Link, Navigate, useLocation } from 'react-router';
import { paths } from '../config/paths';

/** The page being shown, as a way back after logging in. */
export function useHere(): string {
  const location = useLocation();
  return `${location.pathname}${location.search}`;
}

/** Sends a logged-out visitor to the login page, which brings them back here afterwards. */
export function LoginRedirect() {
  return <Navigate to={paths.loginFor(useHere())} replace />;
}

/**
 * « Vous devez vous connecter… » with what to do about it: log in (and come back here), or sign up
 * (the e-mailed link comes back here too).
 */
export function LoginRequired({ message }: { message: string }) {
  const here = useHere();
  return (
    <Text>
      {message}{' '}
      <Anchor component={Link} to={paths.loginFor(here)}>
        Se connecter
      </Anchor>{' '}
      ou{' '}
      <Anchor component={Link} to={paths.signupFor(here)}>
        créer un compte
      </Anchor>
      .
    </Text>
  );
}
