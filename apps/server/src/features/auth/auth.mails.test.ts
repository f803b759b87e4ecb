import { describe, expect, it } from 'vitest';
import { invitationMail } from './auth.mails';

const invitation = { company: 'Harbour Builders', fullName: 'Ana Ruiz', role: 'team_member' as const, url: 'https://siteboard.example.test/accept-invitation?token=t', signIn: 'https://siteboard.example.test/login?companyId=7', hours: 72 };

describe('the invitation mail', () => {
  it('names the admin who invites when they have a name, in the company’s language', () => {
    expect(invitationMail({ ...invitation, language: 'en', inviter: 'Maria Lopez' }).text).toContain('Maria Lopez invited you to join Harbour Builders on SiteBoard as a team member.');
    expect(invitationMail({ ...invitation, language: 'de', inviter: 'Maria Lopez' }).text).toContain('Maria Lopez hat Sie eingeladen, Harbour Builders bei SiteBoard als Teammitglied beizutreten.');
  });

  it('names the role as a sentence does, not as a label', () => {
    expect(invitationMail({ ...invitation, language: 'en', inviter: null, role: 'admin' }).text).toContain('You are invited to join Harbour Builders on SiteBoard as an admin.');
    expect(invitationMail({ ...invitation, language: 'fr', inviter: 'Maria Lopez' }).text).toContain("Maria Lopez vous invite à rejoindre Harbour Builders sur SiteBoard en tant que membre d’équipe.");
    expect(invitationMail({ ...invitation, language: 'fr', inviter: null, role: 'admin' }).text).toContain("On vous invite à rejoindre Harbour Builders sur SiteBoard en tant qu’administrateur.");
    expect(invitationMail({ ...invitation, language: 'es', inviter: null, role: 'manager' }).text).toContain('Te invitan a unirte a Harbour Builders en SiteBoard como jefe de obra.');
  });

  it('says where to sign in afterwards, in the company’s language', () => {
    const mail = invitationMail({ ...invitation, language: 'de', inviter: null });
    expect(mail.text).toContain('Danach melden Sie sich auf jedem Gerät unter https://siteboard.example.test/login?companyId=7 mit Ihrer E-Mail-Adresse');
    // A link in the HTML part, not only text to copy.
    expect(mail.html).toContain('<a href="https://siteboard.example.test/login?companyId=7" style="color:#1d4ed8">https://siteboard.example.test/login?companyId=7</a> mit Ihrer');
  });

  it('names nobody in their place when the admin has no name', () => {
    const mail = invitationMail({ ...invitation, language: 'de', inviter: null });
    expect(mail.text).toContain('Sie sind eingeladen, Harbour Builders bei SiteBoard als Teammitglied beizutreten.');
    expect(mail.html).toContain('Sie sind eingeladen, Harbour Builders bei SiteBoard als Teammitglied beizutreten.');
  });
});
