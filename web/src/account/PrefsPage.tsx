import { session } from '../state/session.ts';
import { AccountSettings } from './AccountSettings.tsx';
import { ApiKeys } from './ApiKeys.tsx';
import { LoginRequired } from './LoginPage.tsx';
import { MailSettings } from './MailSettings.tsx';

export function PrefsPage({ tab }: { tab: 'account' | 'email' | 'apikey' }) {
  const current = session.value;
  return (
    <>
      <h1>Preferences</h1>
      {current ? (
        <>
          <nav aria-label="Preferences">
            <ul class="tags">
              <li>
                <a href="/userprefs.cgi?tab=account" aria-current={tab === 'account' ? 'page' : undefined}>
                  Account
                </a>
              </li>
              <li>
                <a href="/userprefs.cgi?tab=email" aria-current={tab === 'email' ? 'page' : undefined}>
                  Email preferences
                </a>
              </li>
              <li>
                <a href="/userprefs.cgi?tab=apikey" aria-current={tab === 'apikey' ? 'page' : undefined}>
                  API keys
                </a>
              </li>
            </ul>
          </nav>
          {tab === 'account' && <AccountSettings current={current} />}
          {tab === 'email' && <MailSettings />}
          {tab === 'apikey' && <ApiKeys login={current.login} />}
        </>
      ) : (
        <LoginRequired what="change your preferences" />
      )}
    </>
  );
}
