import { useLocation, useNavigate } from 'react-router';
import { paths } from '../config/paths';
import { useSession } from '../session/session-context';
import { SidebarContent } from './sidebar-content';

/** Connects the sidebar to the session; logging out lands on /login (docs/product.md#spec-2). */
export function Sidebar() {
  const { user, roles, chapters, logout, loading } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <SidebarContent
      user={user}
      roles={roles}
      chapters={chapters}
      pathname={pathname}
      connecting={loading}
      onLogout={() => {
        void logout().then((done) => {
          if (done) void navigate(paths.login);
        });
      }}
    />
  );
}
