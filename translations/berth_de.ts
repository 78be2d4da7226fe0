<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>berth::AccountsDialog</name>
    <message>
        <source>Accounts</source>
        <translation>Konten</translation>
    </message>
    <message>
        <source>Users, sign-in or mail</source>
        <translation>Benutzer, Anmeldung oder E-Mail</translation>
    </message>
    <message>
        <source>&amp;Users</source>
        <translation>Ben&amp;utzer</translation>
    </message>
    <message>
        <source>S&amp;ign-in</source>
        <translation>&amp;Anmeldung</translation>
    </message>
    <message>
        <source>&amp;Mail</source>
        <translation>&amp;E-Mail</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
</context>
<context>
    <name>berth::AcmeSettingsPage</name>
    <message>
        <source>Also the API&apos;s &amp;host and every site&apos;s own name</source>
        <translation>Auch der &amp;Host der API und die eigene Adresse jeder Website</translation>
    </message>
    <message>
        <source>Berth can obtain and renew the certificate of every custom domain itself, from an ACME certificate authority such as Let&apos;s Encrypt. Each name&apos;s DNS must point at this computer and the authority must reach Berth&apos;s plain-HTTP port as port 80; the certificates are served on the HTTPS port. Applies the next time Berth starts.</source>
        <translation>Berth kann das Zertifikat jeder eigenen Domain selbst beschaffen und erneuern, bei einer ACME-Zertifizierungsstelle wie Let&apos;s Encrypt. Der DNS-Eintrag jedes Namens muss auf diesen Rechner zeigen, und die Zertifizierungsstelle muss den HTTP-Port von Berth als Port 80 erreichen; ausgeliefert werden die Zertifikate auf dem HTTPS-Port. Gilt ab dem nächsten Start von Berth.</translation>
    </message>
    <message>
        <source>Certificate authority</source>
        <translation>Zertifizierungsstelle</translation>
    </message>
    <message>
        <source>None: no certificates by ACME</source>
        <translation>Keine: keine Zertifikate per ACME</translation>
    </message>
    <message>
        <source>Let&apos;s Encrypt</source>
        <translation>Let&apos;s Encrypt</translation>
    </message>
    <message>
        <source>Let&apos;s Encrypt staging, for trying out</source>
        <translation>Let&apos;s Encrypt Staging, zum Ausprobieren</translation>
    </message>
    <message>
        <source>Another ACME server</source>
        <translation>Ein anderer ACME-Server</translation>
    </message>
    <message>
        <source>ACME directory URL</source>
        <translation>URL des ACME-Verzeichnisses</translation>
    </message>
    <message>
        <source>Contact e-mail</source>
        <translation>Kontakt-E-Mail</translation>
    </message>
    <message>
        <source>The authority writes here about certificates about to expire</source>
        <translation>Hierhin schreibt die Stelle über bald ablaufende Zertifikate</translation>
    </message>
    <message>
        <source>Private CA file</source>
        <translation>Datei der privaten CA</translation>
    </message>
    <message>
        <source>None: the system&apos;s CAs</source>
        <translation>Keine: die CAs des Systems</translation>
    </message>
    <message>
        <source>A PEM CA to trust for the ACME server&apos;s own HTTPS, for a private ACME server on the LAN such as step-ca</source>
        <translation>Eine PEM-CA, der beim HTTPS des ACME-Servers selbst vertraut wird: für einen privaten ACME-Server im LAN wie step-ca</translation>
    </message>
    <message>
        <source>Custom domains always get certificates; this adds the API&apos;s address and &lt;slug&gt;.&lt;site domain&gt; of every site, when the site domain is a name without a port</source>
        <translation>Eigene Domains erhalten immer Zertifikate; dies fügt die Adresse der API und &lt;slug&gt;.&lt;Domain der Websites&gt; jeder Website hinzu, wenn die Domain der Websites ein Name ohne Port ist</translation>
    </message>
    <message>
        <source>Certificate a&amp;uthority:</source>
        <translation>Zertifizierungs&amp;stelle:</translation>
    </message>
    <message>
        <source>Director&amp;y URL:</source>
        <translation>Verzeichnis-&amp;URL:</translation>
    </message>
    <message>
        <source>Contact e-&amp;mail:</source>
        <translation>Kontakt-E-&amp;Mail:</translation>
    </message>
    <message>
        <source>&amp;Private CA file:</source>
        <translation>Datei der &amp;privaten CA:</translation>
    </message>
    <message>
        <source>Private CA (PEM)</source>
        <translation>Private CA (PEM)</translation>
    </message>
    <message>
        <source>Names and their certificates</source>
        <translation>Namen und ihre Zertifikate</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Berth obtains no certificates in this run. Once it starts with an authority chosen above, each name it handles is listed here with its certificate.</source>
        <translation>Berth beschafft in diesem Lauf keine Zertifikate. Sobald es mit einer oben gewählten Zertifizierungsstelle startet, steht hier jeder Name, den es betreut, mit seinem Zertifikat.</translation>
    </message>
    <message>
        <source>“%1” is not an ACME directory URL such as %2.</source>
        <translation>„%1“ ist keine URL eines ACME-Verzeichnisses wie %2.</translation>
    </message>
    <message>
        <source>Certificates by ACME need a contact e-mail address.</source>
        <translation>Zertifikate per ACME brauchen eine Kontakt-E-Mail-Adresse.</translation>
    </message>
    <message>
        <source>“%1” is not a file Berth can read.</source>
        <translation>„%1“ ist keine Datei, die Berth lesen kann.</translation>
    </message>
</context>
<context>
    <name>berth::Appearance</name>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation>Wie das System</translation>
    </message>
</context>
<context>
    <name>berth::CertificateColumns</name>
    <message>
        <source>Certificate</source>
        <translation>Zertifikat</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Letzter Fehler</translation>
    </message>
    <message>
        <source>None yet</source>
        <translation>Noch keines</translation>
    </message>
    <message>
        <source>Being obtained</source>
        <translation>Wird beschafft</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1
Next attempt: %2</source>
        <translation>%1
Nächster Versuch: %2</translation>
    </message>
</context>
<context>
    <name>berth::CountersModel</name>
    <message>
        <source>Counting since %1</source>
        <translation>Zählt seit %1</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Last update</source>
        <translation>Zuletzt geändert</translation>
    </message>
</context>
<context>
    <name>berth::CountersPanel</name>
    <message>
        <source>&amp;Reset to 0…</source>
        <translation>Auf 0 &amp;zurücksetzen …</translation>
    </message>
    <message>
        <source>Delete the counter: it reads 0 and counts again from its next increment</source>
        <translation>Löscht den Zähler: Er steht auf 0 und zählt ab der nächsten Erhöhung wieder</translation>
    </message>
    <message>
        <source>Counters</source>
        <translation>Zähler</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No counters yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;A page of this site creates one when it posts to &lt;code&gt;/_counter/&amp;lt;name&amp;gt;/increment&lt;/code&gt;, and reads it with &lt;code&gt;GET /_counter/&amp;lt;name&amp;gt;&lt;/code&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Noch keine Zähler.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Eine Seite dieser Website legt einen an, wenn sie an &lt;code&gt;/_counter/&amp;lt;name&amp;gt;/increment&lt;/code&gt; sendet, und liest ihn mit &lt;code&gt;GET /_counter/&amp;lt;name&amp;gt;&lt;/code&gt;.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>No counters yet</source>
        <translation>Noch keine Zähler</translation>
    </message>
    <message>
        <source>Resetting deletes a counter: it reads 0 until a visitor counts it again.</source>
        <translation>Zurücksetzen löscht einen Zähler: Er steht auf 0, bis ein Besucher ihn wieder erhöht.</translation>
    </message>
    <message>
        <source>Reset Counter</source>
        <translation>Zähler zurücksetzen</translation>
    </message>
    <message>
        <source>Reset “%1” to 0? Berth deletes the counter: it reads 0 until a visitor counts it again. This cannot be undone.</source>
        <translation>„%1“ auf 0 zurücksetzen? Berth löscht den Zähler: Er steht auf 0, bis ein Besucher ihn wieder erhöht. Das kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>“%1” is reset: it reads 0.</source>
        <translation>„%1“ ist zurückgesetzt und steht auf 0.</translation>
    </message>
    <message>
        <source>&amp;Reset</source>
        <translation>&amp;Zurücksetzen</translation>
    </message>
</context>
<context>
    <name>berth::DeploymentActions</name>
    <message>
        <source>&amp;Open in Browser</source>
        <translation>&amp;Im Browser öffnen</translation>
    </message>
    <message>
        <source>&amp;Copy Address</source>
        <translation>Adresse &amp;kopieren</translation>
    </message>
    <message>
        <source>Copy &amp;Share Link</source>
        <translation>&amp;Freigabelink kopieren</translation>
    </message>
    <message>
        <source>&amp;Private</source>
        <translation>&amp;Privat</translation>
    </message>
    <message>
        <source>&amp;Access and Password…</source>
        <translation>&amp;Zugriff und Passwort …</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>&amp;Umbenennen …</translation>
    </message>
    <message>
        <source>&amp;Edit Details…</source>
        <translation>&amp;Details bearbeiten …</translation>
    </message>
    <message>
        <source>Re&amp;deploy from Folder</source>
        <translation>Aus dem Ordner &amp;neu veröffentlichen</translation>
    </message>
    <message>
        <source>De&amp;lete…</source>
        <translation>&amp;Löschen …</translation>
    </message>
    <message>
        <source>Private sites answer only visitors who have the share link</source>
        <translation>Private Websites antworten nur Besuchern mit dem Freigabelink</translation>
    </message>
    <message>
        <source>Publish %1 again</source>
        <translation>%1 erneut veröffentlichen</translation>
    </message>
    <message>
        <source>Berth does not know a folder this site came from</source>
        <translation>Berth kennt keinen Ordner, aus dem diese Website stammt</translation>
    </message>
    <message>
        <source>Publish Folder</source>
        <translation>Ordner veröffentlichen</translation>
    </message>
    <message>
        <source>Publish HTML File</source>
        <translation>HTML-Datei veröffentlichen</translation>
    </message>
    <message>
        <source>HTML pages (*.html *.htm)</source>
        <translation>HTML-Seiten (*.html *.htm)</translation>
    </message>
    <message>
        <source>Copied %1</source>
        <translation>%1 kopiert</translation>
    </message>
    <message>
        <source>Copied the share link of %1</source>
        <translation>Freigabelink von %1 kopiert</translation>
    </message>
    <message>
        <source>Make Public</source>
        <translation>Öffentlich machen</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>Zugriff</translation>
    </message>
    <message>
        <source>%1 is private: copy its share link to let people in.</source>
        <translation>%1 ist privat: Kopieren Sie den Freigabelink, um anderen Zugang zu geben.</translation>
    </message>
    <message>
        <source>%1 is public.</source>
        <translation>%1 ist öffentlich.</translation>
    </message>
    <message>
        <source>Delete Site</source>
        <translation>Website löschen</translation>
    </message>
    <message>
        <source>Delete “%1”? The site goes offline at once and its address is free for anyone. This cannot be undone.</source>
        <translation>„%1“ löschen? Die Website ist sofort offline und ihre Adresse für alle frei. Das kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>Deleted %1</source>
        <translation>%1 gelöscht</translation>
    </message>
    <message>
        <source>Form S&amp;ubmissions…</source>
        <translation>Formular&amp;einsendungen …</translation>
    </message>
    <message>
        <source>Coun&amp;ters…</source>
        <translation>Zä&amp;hler …</translation>
    </message>
    <message>
        <source>What visitors sent through this site&apos;s forms</source>
        <translation>Was Besucher über die Formulare dieser Website gesendet haben</translation>
    </message>
    <message>
        <source>Submissions</source>
        <translation>Einsendungen</translation>
    </message>
    <message>
        <source>This site&apos;s counters</source>
        <translation>Die Zähler dieser Website</translation>
    </message>
    <message>
        <source>Publish</source>
        <translation>Veröffentlichen</translation>
    </message>
    <message>
        <source>“%1” is where %2 was published from. Update that site with these files, or publish them as a new site?</source>
        <translation>Aus „%1“ wurde %2 veröffentlicht. Diese Website mit den Dateien aktualisieren oder sie als neue Website veröffentlichen?</translation>
    </message>
    <message>
        <source>&amp;Update %1</source>
        <translation>%1 &amp;aktualisieren</translation>
    </message>
    <message>
        <source>Publish as a &amp;New Site</source>
        <translation>Als &amp;neue Website veröffentlichen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Make “%1” public? Anyone with its address can visit it. Its share link and password are removed: making it private again later makes a new link, and the one given out now stops working.</source>
        <translation>„%1“ öffentlich machen? Alle, die die Adresse kennen, können die Website besuchen. Freigabelink und Passwort werden entfernt: Wird sie später wieder privat, entsteht ein neuer Link, und der bisher weitergegebene funktioniert nicht mehr.</translation>
    </message>
    <message>
        <source>Make &amp;Public</source>
        <translation>Ö&amp;ffentlich machen</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Löschen</translation>
    </message>
    <message>
        <source>&amp;History…</source>
        <translation>&amp;Verlauf …</translation>
    </message>
    <message>
        <source>%1 serves version %2 again</source>
        <translation>%1 zeigt wieder Version %2</translation>
    </message>
    <message>
        <source>&amp;Live Folder</source>
        <translation>&amp;Live-Ordner</translation>
    </message>
    <message>
        <source>%1 follows its folder: changes are published as they are saved</source>
        <translation>%1 folgt seinem Ordner: Änderungen werden beim Speichern veröffentlicht</translation>
    </message>
    <message>
        <source>%1 no longer follows its folder</source>
        <translation>%1 folgt seinem Ordner nicht mehr</translation>
    </message>
    <message>
        <source>&amp;New Share Link…</source>
        <translation>&amp;Neuer Freigabelink …</translation>
    </message>
    <message>
        <source>Give this private site a new share link; the current one stops working</source>
        <translation>Dieser privaten Website einen neuen Freigabelink geben; der bisherige funktioniert dann nicht mehr</translation>
    </message>
    <message>
        <source>New Share Link</source>
        <translation>Neuer Freigabelink</translation>
    </message>
    <message>
        <source>Give “%1” a new share link? The current link stops working at once, also for people who already opened the site with it; they need the new one.</source>
        <translation>„%1“ einen neuen Freigabelink geben? Der bisherige Link funktioniert sofort nicht mehr, auch für alle, die die Website damit schon geöffnet haben; sie brauchen den neuen.</translation>
    </message>
    <message>
        <source>&amp;New Link</source>
        <translation>&amp;Neuer Link</translation>
    </message>
    <message>
        <source>Share Link</source>
        <translation>Freigabelink</translation>
    </message>
    <message>
        <source>%1 has a new share link (copied); the old one no longer works.</source>
        <translation>%1 hat einen neuen Freigabelink (kopiert); der alte funktioniert nicht mehr.</translation>
    </message>
    <message>
        <source>Tra&amp;ffic…</source>
        <translation>Zugriffs&amp;statistik …</translation>
    </message>
    <message>
        <source>Not&amp;ifications…</source>
        <translation>&amp;Benachrichtigungen …</translation>
    </message>
    <message>
        <source>E&amp;xpiry…</source>
        <translation>&amp;Ablauf …</translation>
    </message>
    <message>
        <source>Views, visitors, top pages, referrers and missing pages of this site</source>
        <translation>Aufrufe, Besucher, meistbesuchte Seiten, Verweise und fehlende Seiten dieser Website</translation>
    </message>
    <message>
        <source>Where this site&apos;s events go: webhooks, and mail for new submissions</source>
        <translation>Wohin die Ereignisse dieser Website gehen: Webhooks und Mails zu neuen Einsendungen</translation>
    </message>
    <message>
        <source>When this site goes offline by itself</source>
        <translation>Wann diese Website von selbst offline geht</translation>
    </message>
    <message>
        <source>Named Share Lin&amp;ks…</source>
        <translation>Benannte Freigabe&amp;links …</translation>
    </message>
    <message>
        <source>Links of their own for each person: each can expire, be used up or be revoked</source>
        <translation>Eigene Links für jede Person: Jeder kann ablaufen, aufgebraucht oder widerrufen werden</translation>
    </message>
</context>
<context>
    <name>berth::DeploymentTableModel</name>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n Datei</numerusform>
            <numerusform>%n Dateien</numerusform>
        </translation>
    </message>
    <message>
        <source>Double-click to open in the browser</source>
        <translation>Doppelklicken, um sie im Browser zu öffnen</translation>
    </message>
    <message>
        <source>HTML page</source>
        <translation>HTML-Seite</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Public</source>
        <translation>Öffentlich</translation>
    </message>
    <message>
        <source>Private</source>
        <translation>Privat</translation>
    </message>
    <message>
        <source>Private, password</source>
        <translation>Privat, Passwort</translation>
    </message>
    <message>
        <source>Slug</source>
        <translation>Kürzel</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>Zugriff</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Double-click to open in the browser
On the local network: %1</source>
        <translation>Doppelklicken, um im Browser zu öffnen
Im lokalen Netzwerk: %1</translation>
    </message>
    <message>
        <source>Goes offline on %1</source>
        <translation>Geht am %1 offline</translation>
    </message>
    <message>
        <source>Stays online until you delete it</source>
        <translation>Bleibt online, bis Sie sie löschen</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
</context>
<context>
    <name>berth::DomainsEditor</name>
    <message>
        <source>Custom domains</source>
        <translation>Eigene Domains</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>Domain</translation>
    </message>
    <message>
        <source>New domain</source>
        <translation>Neue Domain</translation>
    </message>
    <message>
        <source>A name whose DNS points here, e.g. docs.example.org</source>
        <translation>Ein Name, dessen DNS hierher zeigt, z. B. docs.example.org</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>Only the instance&apos;s owner gives sites custom domains here. The owner can let everyone add them with “berthd domains policy everyone”.</source>
        <translation>Eigene Domains vergibt hier nur der Eigentümer der Instanz. Er kann sie mit „berthd domains policy everyone“ allen erlauben.</translation>
    </message>
    <message>
        <source>A domain is already in use by another site.</source>
        <translation>Eine Domain wird bereits von einer anderen Website verwendet.</translation>
    </message>
    <message>
        <source>“%1”: domain already in use by another site.</source>
        <translation>„%1“: Die Domain wird bereits von einer anderen Website verwendet.</translation>
    </message>
    <message>
        <source>Only the instance&apos;s owner may give sites custom domains.</source>
        <translation>Nur der Eigentümer der Instanz darf Websites eigene Domains geben.</translation>
    </message>
    <message>
        <source>“%1” is already one of this site&apos;s domains.</source>
        <translation>„%1“ ist bereits eine Domain dieser Website.</translation>
    </message>
    <message>
        <source>“%1” is added when you save.</source>
        <translation>„%1“ wird beim Speichern hinzugefügt.</translation>
    </message>
    <message>
        <source>“%1” is removed when you save.</source>
        <translation>„%1“ wird beim Speichern entfernt.</translation>
    </message>
    <message>
        <source>A site can have at most %1 domains: remove one to add another.</source>
        <translation>Eine Website kann höchstens %1 Domains haben: Entfernen Sie eine, um eine andere hinzuzufügen.</translation>
    </message>
</context>
<context>
    <name>berth::EditDetailsDialog</name>
    <message>
        <source>&amp;Single-page app (unknown paths serve index.html)</source>
        <translation>&amp;Single-Page-App (unbekannte Pfade liefern index.html)</translation>
    </message>
    <message>
        <source>Edit Details of %1</source>
        <translation>Details von %1 bearbeiten</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Favicon emoji</source>
        <translation>Favicon-Emoji</translation>
    </message>
    <message>
        <source>An emoji, e.g. ⚓</source>
        <translation>Ein Emoji, z. B. ⚓</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>&amp;Titel:</translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation>&amp;Beschreibung:</translation>
    </message>
    <message>
        <source>&amp;Favicon:</source>
        <translation>&amp;Favicon:</translation>
    </message>
    <message>
        <source>The description can be at most %1 characters; it has %2.</source>
        <translation>Die Beschreibung darf höchstens %1 Zeichen lang sein; sie hat %2.</translation>
    </message>
    <message>
        <source>Only for a site published from a folder: this site is a single HTML page.</source>
        <translation>Nur für Websites, die aus einem Ordner veröffentlicht wurden: Diese Website ist eine einzelne HTML-Seite.</translation>
    </message>
</context>
<context>
    <name>berth::EmptyStatePage</name>
    <message>
        <source>Drop a folder or an .html file here to publish it</source>
        <translation>Ziehen Sie einen Ordner oder eine .html-Datei hierher, um sie zu veröffentlichen</translation>
    </message>
    <message>
        <source>It goes live at once at its own address. Hidden files and .git are left out.</source>
        <translation>Sie ist sofort unter einer eigenen Adresse erreichbar. Versteckte Dateien und .git werden ausgelassen.</translation>
    </message>
    <message>
        <source>Choose &amp;Folder…</source>
        <translation>&amp;Ordner auswählen …</translation>
    </message>
    <message>
        <source>Choose HTML &amp;File…</source>
        <translation>HTML-&amp;Datei auswählen …</translation>
    </message>
</context>
<context>
    <name>berth::ErrorText</name>
    <message>
        <source>Your plan&apos;s deployment limit is reached. Delete a deployment first, or raise the limit.</source>
        <translation>Die Höchstzahl an Websites Ihres Tarifs ist erreicht. Löschen Sie zuerst eine Website oder erhöhen Sie das Limit.</translation>
    </message>
    <message>
        <source>This deployment no longer exists.</source>
        <translation>Diese Website gibt es nicht mehr.</translation>
    </message>
    <message>
        <source>Berth could not finish this: %1</source>
        <translation>Berth konnte das nicht abschließen: %1</translation>
    </message>
    <message>
        <source>This site has as many counters as its plan allows. Reset one first, or raise the limit.</source>
        <translation>Diese Website hat so viele Zähler, wie ihr Tarif erlaubt. Setzen Sie zuerst einen zurück oder erhöhen Sie das Limit.</translation>
    </message>
    <message>
        <source>This site has received as many form submissions today as its plan allows.</source>
        <translation>Diese Website hat heute so viele Formulareinsendungen erhalten, wie ihr Tarif erlaubt.</translation>
    </message>
    <message>
        <source>The address “%1” is already taken by another site. Choose another slug.</source>
        <translation>Die Adresse „%1“ ist bereits von einer anderen Website belegt. Wählen Sie ein anderes Kürzel.</translation>
    </message>
    <message>
        <source>A slug is 3 to 63 characters: lowercase letters and digits in groups joined by single hyphens, with at least one hyphen (e.g. “my-site”).</source>
        <translation>Ein Kürzel hat 3 bis 63 Zeichen: Kleinbuchstaben und Ziffern in Gruppen, verbunden durch einzelne Bindestriche, mit mindestens einem Bindestrich (z. B. „meine-site“).</translation>
    </message>
    <message>
        <source>This counter no longer exists.</source>
        <translation>Diesen Zähler gibt es nicht mehr.</translation>
    </message>
    <message>
        <source>This submission no longer exists.</source>
        <translation>Diese Einsendung gibt es nicht mehr.</translation>
    </message>
    <message>
        <source>This key no longer exists.</source>
        <translation>Diesen Schlüssel gibt es nicht mehr.</translation>
    </message>
    <message>
        <source>This user no longer exists.</source>
        <translation>Diesen Benutzer gibt es nicht mehr.</translation>
    </message>
    <message>
        <source>Too many requests at once. Try again in a minute.</source>
        <translation>Zu viele Anfragen auf einmal. Versuchen Sie es in einer Minute erneut.</translation>
    </message>
    <message>
        <source>Publishing was cancelled; nothing was changed.</source>
        <translation>Das Veröffentlichen wurde abgebrochen; nichts wurde geändert.</translation>
    </message>
</context>
<context>
    <name>berth::ExpiryDialog</name>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n Stunde</numerusform>
            <numerusform>%n Stunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n Tag</numerusform>
            <numerusform>%n Tage</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Never Expire</source>
        <translation>&amp;Nie ablaufen</translation>
    </message>
    <message>
        <source>Expiry of %1</source>
        <translation>Ablauf von %1</translation>
    </message>
    <message>
        <source>The site stays online until you delete it</source>
        <translation>Die Website bleibt online, bis Sie sie löschen</translation>
    </message>
    <message>
        <source>%1 never expires: it stays online until you delete it.</source>
        <translation>%1 läuft nie ab: Die Website bleibt online, bis Sie sie löschen.</translation>
    </message>
    <message>
        <source>%1 goes offline %2, on %3. Its address is then free for anyone.</source>
        <translation>%1 geht %2 offline, am %3. Die Adresse ist dann für alle frei.</translation>
    </message>
    <message>
        <source>&amp;Extend</source>
        <translation>&amp;Verlängern</translation>
    </message>
    <message>
        <source>Saved: %1 now goes offline on %2.</source>
        <translation>Gespeichert: %1 geht jetzt am %2 offline.</translation>
    </message>
    <message>
        <source>Saved: %1 no longer expires.</source>
        <translation>Gespeichert: %1 läuft nicht mehr ab.</translation>
    </message>
    <message>
        <source>Go offline &amp;in:</source>
        <translation>Offline gehen &amp;in:</translation>
    </message>
    <message>
        <source>&amp;Set Expiry</source>
        <translation>Ablauf &amp;festlegen</translation>
    </message>
    <message>
        <source>Extend &amp;by:</source>
        <translation>Verlängern &amp;um:</translation>
    </message>
</context>
<context>
    <name>berth::FileRow</name>
    <message>
        <source>Choose…</source>
        <translation>Auswählen …</translation>
    </message>
    <message>
        <source>PEM files (*.pem *.crt *.cer *.key);;All files (*)</source>
        <translation>PEM-Dateien (*.pem *.crt *.cer *.key);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>berth::FirstKeyDialog</name>
    <message>
        <source>Welcome to Berth</source>
        <translation>Willkommen bei Berth</translation>
    </message>
    <message>
        <source>Your API key</source>
        <translation>Ihr API-Schlüssel</translation>
    </message>
    <message>
        <source>Scripts and agents publish through Berth&apos;s API with this key. &lt;b&gt;Copy it now:&lt;/b&gt; it is shown only this once. More keys, and revoking this one, are under File ▸ API Keys.</source>
        <translation>Skripte und Agenten veröffentlichen mit diesem Schlüssel über die API von Berth. &lt;b&gt;Kopieren Sie ihn jetzt:&lt;/b&gt; Er wird nur dieses eine Mal angezeigt. Weitere Schlüssel, und diesen zu widerrufen, finden Sie unter Datei ▸ API-Schlüssel.</translation>
    </message>
    <message>
        <source>Owner API key</source>
        <translation>API-Schlüssel des Eigentümers</translation>
    </message>
    <message>
        <source>&amp;Copy Key</source>
        <translation>Schlüssel &amp;kopieren</translation>
    </message>
    <message>
        <source>Try it: this publishes a page at once.</source>
        <translation>Probieren Sie es aus: Dies veröffentlicht sofort eine Seite.</translation>
    </message>
    <message>
        <source>Example command</source>
        <translation>Beispielbefehl</translation>
    </message>
    <message>
        <source>Copy &amp;Example</source>
        <translation>&amp;Beispiel kopieren</translation>
    </message>
    <message>
        <source>&amp;Done</source>
        <translation>&amp;Fertig</translation>
    </message>
</context>
<context>
    <name>berth::FolderPackager</name>
    <message>
        <source>“%1” is %2; a single HTML page can be at most %3.</source>
        <translation>„%1“ ist %2 groß; eine einzelne HTML-Seite darf höchstens %3 groß sein.</translation>
    </message>
    <message>
        <source>“%1” could not be read: %2</source>
        <translation>„%1“ konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>“%1” is over %2; a single HTML page can be at most %2.</source>
        <translation>„%1“ ist größer als %2; eine einzelne HTML-Seite darf höchstens %2 groß sein.</translation>
    </message>
    <message>
        <source>“%1” is empty.</source>
        <translation>„%1“ ist leer.</translation>
    </message>
    <message>
        <source>“%1” holds %L2 files; a site can have at most %L3.</source>
        <translation>„%1“ enthält %L2 Dateien; eine Website darf höchstens %L3 haben.</translation>
    </message>
    <message>
        <source>“%1” cannot be published: its name cannot be part of a web address.</source>
        <translation>„%1“ kann nicht veröffentlicht werden: Der Name kann nicht Teil einer Webadresse sein.</translation>
    </message>
    <message>
        <source>“%1” is %2; each file can be at most %3.</source>
        <translation>„%1“ ist %2 groß; jede Datei darf höchstens %3 groß sein.</translation>
    </message>
    <message>
        <source>“%1” holds %2 of files; a site can be at most %3 in total.</source>
        <translation>„%1“ enthält %2 an Dateien; eine Website darf insgesamt höchstens %3 groß sein.</translation>
    </message>
    <message>
        <source>“%1” no longer exists.</source>
        <translation>„%1“ gibt es nicht mehr.</translation>
    </message>
    <message>
        <source>Only a folder or an .html file can be published; “%1” is neither.</source>
        <translation>Nur ein Ordner oder eine .html-Datei kann veröffentlicht werden; „%1“ ist keins von beiden.</translation>
    </message>
    <message>
        <source>“%1” is neither a folder nor a file.</source>
        <translation>„%1“ ist weder ein Ordner noch eine Datei.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>“%1” is over %2; each file can be at most %2.</source>
        <translation>„%1“ ist größer als %2; jede Datei darf höchstens %2 groß sein.</translation>
    </message>
    <message>
        <source>“%1” has no files to publish (hidden files, .git and links out of the folder are left out).</source>
        <translation>„%1“ enthält keine Dateien zum Veröffentlichen (versteckte Dateien, .git und Verknüpfungen aus dem Ordner hinaus werden ausgelassen).</translation>
    </message>
</context>
<context>
    <name>berth::HistoryDialog</name>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>und %n weitere</numerusform>
            <numerusform>und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Roll Back to This Version</source>
        <translation>Auf diese Version &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>History of %1</source>
        <translation>Verlauf von %1</translation>
    </message>
    <message>
        <source>Versions</source>
        <translation>Versionen</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>Veröffentlicht</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>%1 (live)</source>
        <translation>%1 (online)</translation>
    </message>
    <message>
        <source>This version is live.</source>
        <translation>Diese Version ist online.</translation>
    </message>
    <message numerus="yes">
        <source>Rolling back: %n file(s) added</source>
        <translation>
            <numerusform>Beim Zurücksetzen: %n Datei hinzugefügt</numerusform>
            <numerusform>Beim Zurücksetzen: %n Dateien hinzugefügt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) removed</source>
        <translation>
            <numerusform>%n Datei entfernt</numerusform>
            <numerusform>%n Dateien entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) changed</source>
        <translation>
            <numerusform>%n Datei geändert</numerusform>
            <numerusform>%n Dateien geändert</numerusform>
        </translation>
    </message>
    <message>
        <source>Roll Back</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>%1 (prepared)</source>
        <translation>%1 (vorbereitet)</translation>
    </message>
    <message>
        <source>&amp;Make This Version Live</source>
        <translation>Diese Version &amp;online stellen</translation>
    </message>
    <message numerus="yes">
        <source>Making it live: %n file(s) added</source>
        <translation>
            <numerusform>Beim Onlinestellen: %n Datei hinzugefügt</numerusform>
            <numerusform>Beim Onlinestellen: %n Dateien hinzugefügt</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>berth::KeysDialog</name>
    <message>
        <source>&amp;Create Key</source>
        <translation>Schlüssel &amp;erstellen</translation>
    </message>
    <message>
        <source>&amp;Revoke…</source>
        <translation>&amp;Widerrufen …</translation>
    </message>
    <message>
        <source>API Keys</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>Scripts and agents publish through the API with a key: &lt;code&gt;Authorization: Bearer bk_…&lt;/code&gt;. Berth keeps only a hash of each key.</source>
        <translation>Skripte und Agenten veröffentlichen über die API mit einem Schlüssel: &lt;code&gt;Authorization: Bearer bk_…&lt;/code&gt;. Berth speichert von jedem Schlüssel nur einen Hash.</translation>
    </message>
    <message>
        <source>API keys</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>Zuletzt benutzt</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Label of the new key</source>
        <translation>Bezeichnung des neuen Schlüssels</translation>
    </message>
    <message>
        <source>Label, e.g. deploy script</source>
        <translation>Bezeichnung, z. B. Deploy-Skript</translation>
    </message>
    <message>
        <source>New key</source>
        <translation>Neuer Schlüssel</translation>
    </message>
    <message>
        <source>C&amp;opy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation>Widerrufen am %1</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>dashboard</source>
        <translation>Dashboard</translation>
    </message>
    <message>
        <source>Revoke Key</source>
        <translation>Schlüssel widerrufen</translation>
    </message>
    <message>
        <source>Revoke the key “%1”? Scripts using it are refused from now on. This cannot be undone.</source>
        <translation>Den Schlüssel „%1“ widerrufen? Skripte, die ihn benutzen, werden ab sofort abgewiesen. Das kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>The key could not be revoked.</source>
        <translation>Der Schlüssel konnte nicht widerrufen werden.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Copy the new key “%1” now:&lt;/b&gt; it is shown only this once.</source>
        <translation>&lt;b&gt;Kopieren Sie den neuen Schlüssel „%1“ jetzt:&lt;/b&gt; Er wird nur dieses eine Mal angezeigt.</translation>
    </message>
    <message>
        <source>&amp;Revoke</source>
        <translation>&amp;Widerrufen</translation>
    </message>
</context>
<context>
    <name>berth::LiveFolders</name>
    <message>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <source>Live · not synced: %1</source>
        <translation>Live · nicht abgeglichen: %1</translation>
    </message>
    <message>
        <source>Live · synced %1</source>
        <translation>Live · abgeglichen %1</translation>
    </message>
</context>
<context>
    <name>berth::MailPanel</name>
    <message>
        <source>Send &amp;Test</source>
        <translation>Test &amp;verschicken</translation>
    </message>
    <message>
        <source>SMTP server</source>
        <translation>SMTP-Server</translation>
    </message>
    <message>
        <source>smtp.example.com</source>
        <translation>smtp.example.com</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Security</source>
        <translation>Sicherheit</translation>
    </message>
    <message>
        <source>STARTTLS (port 587)</source>
        <translation>STARTTLS (Port 587)</translation>
    </message>
    <message>
        <source>TLS (port 465)</source>
        <translation>TLS (Port 465)</translation>
    </message>
    <message>
        <source>None: a relay you trust (port 25)</source>
        <translation>Keine: ein Relay, dem Sie vertrauen (Port 25)</translation>
    </message>
    <message>
        <source>SMTP user name</source>
        <translation>SMTP-Benutzername</translation>
    </message>
    <message>
        <source>Empty: no sign-in</source>
        <translation>Leer: ohne Anmeldung</translation>
    </message>
    <message>
        <source>SMTP password</source>
        <translation>SMTP-Passwort</translation>
    </message>
    <message>
        <source>Show the password</source>
        <translation>Passwort anzeigen</translation>
    </message>
    <message>
        <source>Sender address</source>
        <translation>Absenderadresse</translation>
    </message>
    <message>
        <source>berth@example.com</source>
        <translation>berth@example.com</translation>
    </message>
    <message>
        <source>Test message recipient</source>
        <translation>Empfänger der Testnachricht</translation>
    </message>
    <message>
        <source>you@example.com</source>
        <translation>sie@example.com</translation>
    </message>
    <message>
        <source>Mail for sign-in codes</source>
        <translation>E-Mail für Anmeldecodes</translation>
    </message>
    <message>
        <source>S&amp;ecurity:</source>
        <translation>Sic&amp;herheit:</translation>
    </message>
    <message>
        <source>SMTP &amp;server:</source>
        <translation>SMTP-&amp;Server:</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>&amp;Port:</translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation>Pass&amp;wort:</translation>
    </message>
    <message>
        <source>Sen&amp;der:</source>
        <translation>Absen&amp;der:</translation>
    </message>
    <message>
        <source>Berth keeps the password in its database, as it needs it to send: keep the data folder private.</source>
        <translation>Berth speichert das Passwort in seiner Datenbank, weil es damit sendet: Halten Sie den Datenordner privat.</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>Sign-in codes are mailed through &lt;b&gt;%1:%2&lt;/b&gt;.</source>
        <translation>Anmeldecodes werden über &lt;b&gt;%1:%2&lt;/b&gt; verschickt.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Mail is not set up.&lt;/b&gt; Berth sends no codes: you pass them on from the Sign-in tab.</source>
        <translation>&lt;b&gt;E-Mail ist nicht eingerichtet.&lt;/b&gt; Berth verschickt keine Codes: Sie geben sie vom Reiter „Anmeldung“ aus weiter.</translation>
    </message>
    <message>
        <source>Last delivery failed %1: %2</source>
        <translation>Letzte Zustellung fehlgeschlagen %1: %2</translation>
    </message>
    <message>
        <source>Enter the SMTP server&apos;s host name, such as smtp.example.com.</source>
        <translation>Geben Sie den Hostnamen des SMTP-Servers ein, etwa smtp.example.com.</translation>
    </message>
    <message>
        <source>Enter the sender&apos;s email address, such as berth@example.com.</source>
        <translation>Geben Sie die E-Mail-Adresse des Absenders ein, etwa berth@example.com.</translation>
    </message>
    <message>
        <source>Saved. The next sign-in code goes out by mail.</source>
        <translation>Gespeichert. Der nächste Anmeldecode geht per E-Mail hinaus.</translation>
    </message>
    <message>
        <source>Stop Mailing</source>
        <translation>Versand beenden</translation>
    </message>
    <message>
        <source>Forget the mail settings? Berth then sends no sign-in codes: you pass them on yourself.</source>
        <translation>Die E-Mail-Einstellungen vergessen? Berth verschickt dann keine Anmeldecodes: Sie geben sie selbst weiter.</translation>
    </message>
    <message>
        <source>The mail settings could not be removed.</source>
        <translation>Die E-Mail-Einstellungen konnten nicht entfernt werden.</translation>
    </message>
    <message>
        <source>Mail settings removed: you pass sign-in codes on.</source>
        <translation>E-Mail-Einstellungen entfernt: Sie geben Anmeldecodes weiter.</translation>
    </message>
    <message>
        <source>Enter the address to send the test message to.</source>
        <translation>Geben Sie die Adresse ein, an die die Testnachricht gehen soll.</translation>
    </message>
    <message>
        <source>Sending a test message to %1…</source>
        <translation>Testnachricht an %1 wird verschickt …</translation>
    </message>
    <message>
        <source>The test message to %1 is sent.</source>
        <translation>Die Testnachricht an %1 ist verschickt.</translation>
    </message>
    <message>
        <source>The test message failed: %1</source>
        <translation>Die Testnachricht ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Sa&amp;ve Mail Settings</source>
        <translation>E-Mail-Einstellungen spei&amp;chern</translation>
    </message>
    <message>
        <source>Stop Mai&amp;ling…</source>
        <translation>Versand &amp;beenden …</translation>
    </message>
    <message>
        <source>User &amp;name:</source>
        <translation>Benutzer&amp;name:</translation>
    </message>
    <message>
        <source>Send a test message t&amp;o:</source>
        <translation>&amp;Testnachricht an:</translation>
    </message>
    <message>
        <source>&amp;Stop Mailing</source>
        <translation>Versand &amp;beenden</translation>
    </message>
</context>
<context>
    <name>berth::MailSubmissionsRow</name>
    <message>
        <source>Address for new submissions</source>
        <translation>Adresse für neue Einsendungen</translation>
    </message>
    <message>
        <source>you@example.com</source>
        <translation>sie@example.com</translation>
    </message>
    <message>
        <source>&amp;Mail to:</source>
        <translation>&amp;Mail an:</translation>
    </message>
    <message>
        <source>New submissions are mailed to %1.</source>
        <translation>Neue Einsendungen gehen per Mail an %1.</translation>
    </message>
    <message>
        <source>Submissions are not mailed; they wait in the site&apos;s Submissions window.</source>
        <translation>Einsendungen werden nicht gemailt; sie warten im Einsendungen-Fenster der Website.</translation>
    </message>
    <message>
        <source>&amp;Stop Mailing</source>
        <translation>Mails &amp;beenden</translation>
    </message>
    <message>
        <source>Mail Me &amp;New Submissions</source>
        <translation>&amp;Neue Einsendungen mailen</translation>
    </message>
</context>
<context>
    <name>berth::MainWindow</name>
    <message>
        <source>Berth</source>
        <translation>Berth</translation>
    </message>
    <message>
        <source>Deployments</source>
        <translation>Websites</translation>
    </message>
    <message>
        <source>&amp;Publish Folder…</source>
        <translation>Ordner &amp;veröffentlichen …</translation>
    </message>
    <message>
        <source>Publish &amp;HTML File…</source>
        <translation>&amp;HTML-Datei veröffentlichen …</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Close Window</source>
        <translation>Fenster &amp;schließen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Site</source>
        <translation>&amp;Website</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Filter Sites</source>
        <translation>Websites &amp;filtern</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Haupt</translation>
    </message>
    <message numerus="yes">
        <source>%n site(s)</source>
        <translation>
            <numerusform>%n Website</numerusform>
            <numerusform>%n Websites</numerusform>
        </translation>
    </message>
    <message>
        <source>Publish</source>
        <translation>Veröffentlichen</translation>
    </message>
    <message>
        <source>Drop one folder or .html file at a time.</source>
        <translation>Bitte immer nur einen Ordner oder eine .html-Datei ablegen.</translation>
    </message>
    <message>
        <source>Drop to replace the content of %1</source>
        <translation>Ablegen, um den Inhalt von %1 zu ersetzen</translation>
    </message>
    <message>
        <source>Drop to publish a new site</source>
        <translation>Ablegen, um eine neue Website zu veröffentlichen</translation>
    </message>
    <message>
        <source>Berth is still serving</source>
        <translation>Berth liefert weiter aus</translation>
    </message>
    <message>
        <source>New plan limits saved: they apply now.</source>
        <translation>Neue Tariflimits gespeichert: Sie gelten ab sofort.</translation>
    </message>
    <message>
        <source>Finishing publish…</source>
        <translation>Veröffentlichung wird abgeschlossen …</translation>
    </message>
    <message>
        <source>Your sites stay online. Quit from the tray icon&apos;s menu or with File ▸ Quit.</source>
        <translation>Ihre Websites bleiben online. Beenden Sie Berth über das Menü des Symbols im Infobereich oder mit Datei ▸ Beenden.</translation>
    </message>
    <message>
        <source>No site matches “%1”.</source>
        <translation>Keine Website passt zu „%1“.</translation>
    </message>
    <message>
        <source>Published %1</source>
        <translation>%1 veröffentlicht</translation>
    </message>
</context>
<context>
    <name>berth::NotificationsDialog</name>
    <message>
        <source>Delivered</source>
        <translation>Zugestellt</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>next try %1</source>
        <translation>nächster Versuch %1</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhooks</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Sites</source>
        <translation>Websites</translation>
    </message>
    <message>
        <source>Last deliveries</source>
        <translation>Letzte Zustellungen</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Send &amp;Test</source>
        <translation>&amp;Test senden</translation>
    </message>
    <message>
        <source>%1 – Notifications</source>
        <translation>%1 – Benachrichtigungen</translation>
    </message>
    <message>
        <source>Mail</source>
        <translation>Mail</translation>
    </message>
    <message>
        <source>Send a ping event to the selected webhook now</source>
        <translation>Jetzt ein Ping-Ereignis an den gewählten Webhook senden</translation>
    </message>
    <message>
        <source>&amp;Webhooks of this site:</source>
        <translation>&amp;Webhooks dieser Website:</translation>
    </message>
    <message>
        <source>&amp;Last deliveries of the selected webhook:</source>
        <translation>&amp;Letzte Zustellungen des gewählten Webhooks:</translation>
    </message>
    <message>
        <source>All sites</source>
        <translation>Alle Websites</translation>
    </message>
    <message>
        <source>This site</source>
        <translation>Diese Website</translation>
    </message>
    <message>
        <source>A test event is on its way.</source>
        <translation>Ein Testereignis ist unterwegs.</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Turn &amp;On Again</source>
        <translation>&amp;Wieder einschalten</translation>
    </message>
    <message>
        <source>Deliver the selected webhook&apos;s new events again</source>
        <translation>Neue Ereignisse wieder an den ausgewählten Webhook senden</translation>
    </message>
    <message>
        <source>Off since %1</source>
        <translation>Aus seit %1</translation>
    </message>
    <message>
        <source>On</source>
        <translation>An</translation>
    </message>
    <message>
        <source>The webhook is on again: new events go out to it.</source>
        <translation>Der Webhook ist wieder an: Neue Ereignisse gehen an ihn.</translation>
    </message>
</context>
<context>
    <name>berth::OwnerWindows</name>
    <message>
        <source>API &amp;Keys…</source>
        <translation>API-&amp;Schlüssel …</translation>
    </message>
    <message>
        <source>&amp;Accounts…</source>
        <translation>&amp;Konten …</translation>
    </message>
    <message>
        <source>Users and their plans, who may sign in, sign-in codes to pass on, mail</source>
        <translation>Benutzer und ihre Tarife, wer sich anmelden darf, weiterzugebende Anmeldecodes, E-Mail</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;About Berth</source>
        <translation>&amp;Über Berth</translation>
    </message>
    <message>
        <source>About Berth</source>
        <translation>Über Berth</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Berth %1&lt;/h3&gt;&lt;p&gt;Puts a folder on a live address from your own machine.&lt;/p&gt;&lt;p&gt;Sites stay online while Berth runs, in this window or in the tray.&lt;/p&gt;&lt;p&gt;GPL-3.0-or-later&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Berth %1&lt;/h3&gt;&lt;p&gt;Bringt einen Ordner von Ihrem eigenen Rechner aus unter eine erreichbare Adresse.&lt;/p&gt;&lt;p&gt;Websites bleiben online, solange Berth läuft, in diesem Fenster oder im Systembereich.&lt;/p&gt;&lt;p&gt;GPL-3.0-or-later&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>berth::PlanText</name>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>Free</translation>
    </message>
    <message>
        <source>Pro</source>
        <translation>Pro</translation>
    </message>
</context>
<context>
    <name>berth::ProtectionDialog</name>
    <message>
        <source>P&amp;ublic: anyone with the address can visit</source>
        <translation>Ö&amp;ffentlich: Alle, die die Adresse kennen, können sie besuchen</translation>
    </message>
    <message>
        <source>P&amp;rivate: only people with the share link can visit</source>
        <translation>&amp;Privat: Nur wer den Freigabelink hat, kann sie besuchen</translation>
    </message>
    <message>
        <source>Also require a &amp;password</source>
        <translation>Zusätzlich ein Pass&amp;wort verlangen</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Access to %1</source>
        <translation>Zugriff auf %1</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Passwort</translation>
    </message>
    <message>
        <source>Set; type here to change it</source>
        <translation>Gesetzt; hier tippen, um es zu ändern</translation>
    </message>
    <message>
        <source>New password</source>
        <translation>Neues Passwort</translation>
    </message>
    <message>
        <source>Share link</source>
        <translation>Freigabelink</translation>
    </message>
    <message>
        <source>Copy share link</source>
        <translation>Freigabelink kopieren</translation>
    </message>
    <message>
        <source>Share link:</source>
        <translation>Freigabelink:</translation>
    </message>
    <message>
        <source>A share link is made when you save.</source>
        <translation>Beim Speichern wird ein Freigabelink erstellt.</translation>
    </message>
    <message>
        <source>Type the password visitors will need, or untick “Also require a password”.</source>
        <translation>Geben Sie das Passwort für Besucher ein oder entfernen Sie den Haken bei „Zusätzlich ein Passwort verlangen“.</translation>
    </message>
    <message>
        <source>Making the site public removes its share link and password. Making it private again later makes a new link; the one given out now stops working.</source>
        <translation>Wird die Website öffentlich, entfallen Freigabelink und Passwort. Wird sie später wieder privat, entsteht ein neuer Link; der bisher weitergegebene funktioniert dann nicht mehr.</translation>
    </message>
    <message>
        <source>QR code of the share link</source>
        <translation>QR-Code des Freigabelinks</translation>
    </message>
</context>
<context>
    <name>berth::PublishDialog</name>
    <message>
        <source>Published, with something worth fixing:</source>
        <translation>Veröffentlicht, mit etwas, das sich zu beheben lohnt:</translation>
    </message>
    <message>
        <source>Before you publish, have a look at these:</source>
        <translation>Bitte vor dem Veröffentlichen ansehen:</translation>
    </message>
    <message>
        <source>Pre-publish checks</source>
        <translation>Prüfungen vor dem Veröffentlichen</translation>
    </message>
    <message>
        <source>Replace &amp;Anyway</source>
        <translation>&amp;Trotzdem ersetzen</translation>
    </message>
    <message>
        <source>Publish &amp;Anyway</source>
        <translation>&amp;Trotzdem veröffentlichen</translation>
    </message>
    <message>
        <source>Replace Site Content</source>
        <translation>Inhalt der Website ersetzen</translation>
    </message>
    <message>
        <source>Publish Site</source>
        <translation>Website veröffentlichen</translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation>&amp;Ersetzen</translation>
    </message>
    <message>
        <source>&amp;Publish</source>
        <translation>&amp;Veröffentlichen</translation>
    </message>
    <message>
        <source>Reading files… %1 of %2</source>
        <translation>Dateien werden gelesen … %1 von %2</translation>
    </message>
    <message>
        <source>Replace “%1” with “%2”?</source>
        <translation>„%1“ durch „%2“ ersetzen?</translation>
    </message>
    <message>
        <source>Publish “%1”</source>
        <translation>„%1“ veröffentlichen</translation>
    </message>
    <message>
        <source>Reading files…</source>
        <translation>Dateien werden gelesen …</translation>
    </message>
    <message>
        <source>Everything now in %1 is replaced by these files. The address stays the same; visitors see the new version at once.</source>
        <translation>Alles, was jetzt unter %1 liegt, wird durch diese Dateien ersetzt. Die Adresse bleibt gleich; Besucher sehen sofort die neue Version.</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>Taken from the page&apos;s &lt;title&gt; when empty</source>
        <translation>Leer: aus dem &lt;title&gt; der Seite</translation>
    </message>
    <message>
        <source>&amp;Single-page app (unknown paths serve index.html)</source>
        <translation>&amp;Single-Page-App (unbekannte Pfade liefern index.html)</translation>
    </message>
    <message>
        <source>P&amp;rivate: only people with the share link can visit</source>
        <translation>&amp;Privat: Nur wer den Freigabelink hat, kann sie besuchen</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Passwort</translation>
    </message>
    <message>
        <source>&amp;Slug:</source>
        <translation>&amp;Kürzel:</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>&amp;Titel:</translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation>Pass&amp;wort:</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>&amp;Copy Address</source>
        <translation>Adresse &amp;kopieren</translation>
    </message>
    <message>
        <source>&amp;Open in Browser</source>
        <translation>&amp;Im Browser öffnen</translation>
    </message>
    <message>
        <source>Share link</source>
        <translation>Freigabelink</translation>
    </message>
    <message>
        <source>Copy &amp;Share Link</source>
        <translation>&amp;Freigabelink kopieren</translation>
    </message>
    <message>
        <source>The site is private. Visitors need this share link:</source>
        <translation>Die Website ist privat. Besucher brauchen diesen Freigabelink:</translation>
    </message>
    <message>
        <source>This cannot be published as it is.</source>
        <translation>Das kann so nicht veröffentlicht werden.</translation>
    </message>
    <message>
        <source>A single HTML page, %1</source>
        <translation>Eine einzelne HTML-Seite, %1</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), %1</source>
        <translation>
            <numerusform>%n Datei, %1</numerusform>
            <numerusform>%n Dateien, %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hidden item(s) skipped</source>
        <translation>
            <numerusform>%n verstecktes Element ausgelassen</numerusform>
            <numerusform>%n versteckte Elemente ausgelassen</numerusform>
        </translation>
    </message>
    <message>
        <source>“%1” was just taken by another site. Choose another slug.</source>
        <translation>„%1“ wurde gerade von einer anderen Website belegt. Wählen Sie ein anderes Kürzel.</translation>
    </message>
    <message>
        <source>“%1” is updated</source>
        <translation>„%1“ ist aktualisiert</translation>
    </message>
    <message>
        <source>Your site is live</source>
        <translation>Ihre Website ist online</translation>
    </message>
    <message>
        <source>Replacing the content…</source>
        <translation>Inhalt wird ersetzt …</translation>
    </message>
    <message>
        <source>Publishing…</source>
        <translation>Wird veröffentlicht …</translation>
    </message>
    <message>
        <source>&amp;Done</source>
        <translation>&amp;Fertig</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Finishing publish…</source>
        <translation>Veröffentlichung wird abgeschlossen …</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>Wird geprüft …</translation>
    </message>
    <message>
        <source>Storing %1 of %2…</source>
        <translation>%1 von %2 werden gespeichert …</translation>
    </message>
    <message>
        <source>Putting the new version online…</source>
        <translation>Die neue Version geht online …</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen …</translation>
    </message>
    <message numerus="yes">
        <source>%n link(s) out of the folder left out</source>
        <translation>
            <numerusform>%n Verknüpfung aus dem Ordner hinaus ausgelassen</numerusform>
            <numerusform>%n Verknüpfungen aus dem Ordner hinaus ausgelassen</numerusform>
        </translation>
    </message>
    <message>
        <source>Optional: visitors may type it instead of using the share link</source>
        <translation>Optional: Besucher können es statt des Freigabelinks eingeben</translation>
    </message>
    <message>
        <source>A password makes the site private: visitors come in with its share link or with the password.</source>
        <translation>Ein Passwort macht die Website privat: Besucher kommen mit ihrem Freigabelink oder mit dem Passwort hinein.</translation>
    </message>
    <message>
        <source>Version %1 of “%2” is prepared</source>
        <translation>Version %1 von „%2“ ist vorbereitet</translation>
    </message>
    <message>
        <source>Visitors still see the live version. To make this one live, select it in the site&apos;s History and choose Make This Version Live.</source>
        <translation>Besucher sehen weiter die Online-Version. Um diese online zu stellen, wählen Sie sie im Verlauf der Website und dann „Diese Version online stellen“.</translation>
    </message>
    <message>
        <source>Prepare &amp;Anyway</source>
        <translation>&amp;Trotzdem vorbereiten</translation>
    </message>
    <message>
        <source>&amp;Prepare</source>
        <translation>&amp;Vorbereiten</translation>
    </message>
    <message>
        <source>Prepare &amp;without publishing: keep the live site as it is</source>
        <translation>&amp;Nur vorbereiten: Die Online-Website bleibt, wie sie ist</translation>
    </message>
    <message>
        <source>The files become a new version in the site&apos;s History, where you make it live</source>
        <translation>Die Dateien werden eine neue Version im Verlauf der Website, wo Sie sie online stellen</translation>
    </message>
</context>
<context>
    <name>berth::PublishIssueText</name>
    <message>
        <source>No index.html</source>
        <translation>Keine index.html</translation>
    </message>
    <message>
        <source>Broken link</source>
        <translation>Defekter Link</translation>
    </message>
    <message>
        <source>Over a limit</source>
        <translation>Über einer Grenze</translation>
    </message>
    <message>
        <source>Possible secret</source>
        <translation>Mögliches Geheimnis</translation>
    </message>
    <message>
        <source>Large image</source>
        <translation>Großes Bild</translation>
    </message>
    <message>
        <source>There is no index.html at the top of the folder: the site&apos;s address will show Not found</source>
        <translation>Oben im Ordner gibt es keine index.html: unter der Adresse der Website erscheint „Nicht gefunden“</translation>
    </message>
    <message>
        <source>The folder has %L1 files: a site can have at most %L2</source>
        <translation>Der Ordner enthält %L1 Dateien: eine Website kann höchstens %L2 haben</translation>
    </message>
    <message>
        <source>The folder holds %1: over the %2 limit for a site</source>
        <translation>Der Ordner enthält %1: mehr als die Grenze von %2 für eine Website</translation>
    </message>
    <message>
        <source>%1 is %2: over the %3 per-file limit</source>
        <translation>%1 ist %2 groß: mehr als die Grenze von %3 je Datei</translation>
    </message>
    <message>
        <source>%1 is a %2 image: pages that show it load slowly; a smaller or compressed copy helps</source>
        <translation>%1 ist ein Bild von %2: Seiten, die es zeigen, laden langsam; eine kleinere oder komprimierte Fassung hilft</translation>
    </message>
    <message>
        <source>%1 looks like an environment file (.env), which usually holds passwords and keys</source>
        <translation>%1 sieht wie eine Umgebungsdatei (.env) aus, die meist Passwörter und Schlüssel enthält</translation>
    </message>
    <message>
        <source>%1 looks like an SSH private key</source>
        <translation>%1 sieht wie ein privater SSH-Schlüssel aus</translation>
    </message>
    <message>
        <source>%1 contains a private key block</source>
        <translation>%1 enthält einen privaten Schlüssel (PEM-Block)</translation>
    </message>
    <message>
        <source>%1 contains what looks like an AWS access key</source>
        <translation>%1 enthält etwas, das wie ein AWS-Zugangsschlüssel aussieht</translation>
    </message>
    <message>
        <source>%1 contains what looks like a GitHub token</source>
        <translation>%1 enthält etwas, das wie ein GitHub-Token aussieht</translation>
    </message>
    <message>
        <source>%1 contains what looks like a Slack token</source>
        <translation>%1 enthält etwas, das wie ein Slack-Token aussieht</translation>
    </message>
    <message>
        <source>%1 contains what looks like a Stripe secret key</source>
        <translation>%1 enthält etwas, das wie ein geheimer Stripe-Schlüssel aussieht</translation>
    </message>
    <message>
        <source>%1 contains what looks like a Google API key</source>
        <translation>%1 enthält etwas, das wie ein Google-API-Schlüssel aussieht</translation>
    </message>
    <message>
        <source>%1 links to “%2”, which is not in the folder</source>
        <translation>%1 verlinkt „%2“, das nicht im Ordner liegt</translation>
    </message>
    <message>
        <source>%1 links to “%2”, which is outside the folder</source>
        <translation>%1 verlinkt „%2“, das außerhalb des Ordners liegt</translation>
    </message>
    <message>
        <source>%1 loads “%2”, which is not in the folder</source>
        <translation>%1 lädt „%2“, das nicht im Ordner liegt</translation>
    </message>
    <message>
        <source>%1 loads “%2”, which is outside the folder</source>
        <translation>%1 lädt „%2“, das außerhalb des Ordners liegt</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more of this kind (%1)</source>
        <translation>
            <numerusform>… und %n weiterer dieser Art (%1)</numerusform>
            <numerusform>… und %n weitere dieser Art (%1)</numerusform>
        </translation>
    </message>
    <message>
        <source>Left out</source>
        <translation>Ausgelassen</translation>
    </message>
    <message>
        <source>%1 is a link to outside the folder (or to nothing): it is left out</source>
        <translation>%1 ist eine Verknüpfung aus dem Ordner hinaus (oder ins Leere): sie wird ausgelassen</translation>
    </message>
</context>
<context>
    <name>berth::QrPanel</name>
    <message>
        <source>QR code of the site&apos;s address</source>
        <translation>QR-Code der Adresse der Website</translation>
    </message>
    <message>
        <source>Scan to open the share link on a phone</source>
        <translation>Zum Öffnen des Freigabelinks auf einem Telefon scannen</translation>
    </message>
    <message>
        <source>Scan to open on a phone</source>
        <translation>Zum Öffnen auf einem Telefon scannen</translation>
    </message>
</context>
<context>
    <name>berth::RenameDialog</name>
    <message>
        <source>Rename Site</source>
        <translation>Website umbenennen</translation>
    </message>
    <message>
        <source>The site moves to its new address at once; %1 stops working.</source>
        <translation>Die Website zieht sofort unter ihre neue Adresse um; %1 funktioniert dann nicht mehr.</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Umbenennen</translation>
    </message>
    <message>
        <source>New &amp;slug:</source>
        <translation>Neues &amp;Kürzel:</translation>
    </message>
    <message>
        <source>“%1” is already taken by another site. Choose another slug.</source>
        <translation>„%1“ ist bereits von einer anderen Website belegt. Wählen Sie ein anderes Kürzel.</translation>
    </message>
</context>
<context>
    <name>berth::ServingHeader</name>
    <message>
        <source>Where Berth is serving</source>
        <translation>Wo Berth ausliefert</translation>
    </message>
    <message>
        <source>Filter sites</source>
        <translation>Websites filtern</translation>
    </message>
    <message>
        <source>Share on &amp;local network</source>
        <translation>Im &amp;lokalen Netzwerk freigeben</translation>
    </message>
    <message>
        <source>Other devices on this network (phones, other computers) can open the sites: as &lt;slug&gt;.local and on a port of each site&apos;s own</source>
        <translation>Andere Geräte in diesem Netzwerk (Telefone, andere Computer) können die Websites öffnen: als &lt;slug&gt;.local und über einen eigenen Port je Website</translation>
    </message>
    <message>
        <source>Local network addresses</source>
        <translation>Adressen im lokalen Netzwerk</translation>
    </message>
    <message>
        <source>Only this computer can open the sites.</source>
        <translation>Nur dieser Computer kann die Websites öffnen.</translation>
    </message>
    <message>
        <source>No address on a local network right now.</source>
        <translation>Zurzeit keine Adresse in einem lokalen Netzwerk.</translation>
    </message>
    <message>
        <source>API %1 · Sites at &amp;lt;slug&amp;gt;.local:%2 and on ports of their own</source>
        <translation>API %1 · Websites unter &amp;lt;slug&amp;gt;.local:%2 und auf eigenen Ports</translation>
    </message>
    <message>
        <source>&lt;b&gt;Serving&lt;/b&gt; · API %1 · Sites %2 · Data %3</source>
        <translation>&lt;b&gt;Online&lt;/b&gt; · API %1 · Websites %2 · Daten %3</translation>
    </message>
</context>
<context>
    <name>berth::SettingsDialog</name>
    <message>
        <source>&amp;Keep serving from the system tray when the window is closed</source>
        <translation>Nach dem Schließen des Fensters im &amp;Systembereich weiter ausliefern</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Listen address and port</source>
        <translation>Adresse und Port</translation>
    </message>
    <message>
        <source>Site domain</source>
        <translation>Domain der Websites</translation>
    </message>
    <message>
        <source>localhost:PORT</source>
        <translation>localhost:PORT</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>Datenordner</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen …</translation>
    </message>
    <message>
        <source>Data Folder</source>
        <translation>Datenordner</translation>
    </message>
    <message>
        <source>Server settings apply the next time Berth starts. The command-line options --listen, --site-domain and --data-dir override them for one run.</source>
        <translation>Servereinstellungen gelten ab dem nächsten Start von Berth. Die Befehlszeilenoptionen --listen, --site-domain und --data-dir haben für einen Start Vorrang.</translation>
    </message>
    <message>
        <source>&amp;Listen on:</source>
        <translation>&amp;Erreichbar unter:</translation>
    </message>
    <message>
        <source>Site &amp;domain:</source>
        <translation>&amp;Domain der Websites:</translation>
    </message>
    <message>
        <source>Data &amp;folder:</source>
        <translation>Daten&amp;ordner:</translation>
    </message>
    <message>
        <source>Plan limits</source>
        <translation>Tariflimits</translation>
    </message>
    <message>
        <source>Deployments</source>
        <translation>Websites</translation>
    </message>
    <message>
        <source>Submissions a day</source>
        <translation>Einsendungen pro Tag</translation>
    </message>
    <message>
        <source>Submissions kept</source>
        <translation>Gespeicherte Einsendungen</translation>
    </message>
    <message>
        <source>Counters a site</source>
        <translation>Zähler pro Website</translation>
    </message>
    <message>
        <source>“%1” is not an address and port such as 127.0.0.1:8080.</source>
        <translation>„%1“ ist keine Adresse mit Port wie 127.0.0.1:8080.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Restore &amp;Defaults</source>
        <translation>&amp;Standardwerte</translation>
    </message>
    <message>
        <source>Puts back the limits Berth ships with; they apply when you save</source>
        <translation>Stellt die Limits wieder her, mit denen Berth ausgeliefert wird; sie gelten, sobald Sie speichern</translation>
    </message>
    <message>
        <source>Type over a number to change it. New limits apply as soon as you save, to everyone on the plan; sites and submissions already above a lowered limit stay. The instance owner is on Pro. Sizes: a single HTML page up to %1, each file up to %2, a whole site up to %3.</source>
        <translation>Überschreiben Sie eine Zahl, um sie zu ändern. Neue Limits gelten, sobald Sie speichern, für alle im Tarif; Websites und Einsendungen über einem gesenkten Limit bleiben erhalten. Das Eigentümerkonto der Instanz hat den Pro-Tarif. Größen: eine einzelne HTML-Seite bis %1, jede Datei bis %2, eine ganze Website bis %3.</translation>
    </message>
    <message>
        <source>The limits of %1 could not be saved: %2</source>
        <translation>Die Limits von %1 konnten nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>Erscheinungsbild</translation>
    </message>
    <message>
        <source>&amp;Appearance:</source>
        <translation>Erschei&amp;nungsbild:</translation>
    </message>
    <message>
        <source>In effect for this run, from the command line: %1. The values here apply when Berth starts without these options.</source>
        <translation>Für diesen Lauf gilt, was auf der Befehlszeile steht: %1. Die Werte hier gelten, wenn Berth ohne diese Optionen startet.</translation>
    </message>
    <message>
        <source>Share on the local &amp;network</source>
        <translation>Im lokalen &amp;Netzwerk freigeben</translation>
    </message>
    <message>
        <source>Also listen on this computer&apos;s LAN addresses, announce every site as &lt;slug&gt;.local and give each site a port of its own. Applies at once.</source>
        <translation>Auch auf den LAN-Adressen dieses Computers empfangen, jede Website als &lt;slug&gt;.local bekannt geben und jeder Website einen eigenen Port geben. Gilt sofort.</translation>
    </message>
    <message>
        <source>Older versions go, with the files only they used, at a site&apos;s next publish</source>
        <translation>Ältere Versionen entfallen samt den nur von ihnen genutzten Dateien bei der nächsten Veröffentlichung einer Website</translation>
    </message>
    <message>
        <source>&amp;Versions kept per site:</source>
        <translation>&amp;Versionen je Website:</translation>
    </message>
    <message>
        <source>The number of versions kept could not be saved.</source>
        <translation>Die Zahl der aufbewahrten Versionen konnte nicht gespeichert werden.</translation>
    </message>
    <message>
        <source>Serving threads</source>
        <translation>Threads für Anfragen</translation>
    </message>
    <message>
        <source>One per core (%1)</source>
        <translation>Einer je Kern (%1)</translation>
    </message>
    <message>
        <source>Threads that answer visitors and the API; more serve more visitors at once</source>
        <translation>Threads, die Besuchern und der API antworten; mehr bedienen mehr Besucher gleichzeitig</translation>
    </message>
    <message>
        <source>Serving &amp;threads:</source>
        <translation>&amp;Threads für Anfragen:</translation>
    </message>
    <message>
        <source>HTTPS certificate file</source>
        <translation>HTTPS-Zertifikatsdatei</translation>
    </message>
    <message>
        <source>None: plain HTTP only</source>
        <translation>Keine: nur unverschlüsseltes HTTP</translation>
    </message>
    <message>
        <source>PEM file with the server certificate first, then any intermediate certificates</source>
        <translation>PEM-Datei mit zuerst dem Serverzertifikat, danach etwaigen Zwischenzertifikaten</translation>
    </message>
    <message>
        <source>HTTPS private key file</source>
        <translation>Datei mit dem privaten HTTPS-Schlüssel</translation>
    </message>
    <message>
        <source>PEM file with the certificate&apos;s private key, not protected by a passphrase</source>
        <translation>PEM-Datei mit dem privaten Schlüssel des Zertifikats, ohne Passphrase</translation>
    </message>
    <message>
        <source>HTTPS port</source>
        <translation>HTTPS-Port</translation>
    </message>
    <message>
        <source>Any free port</source>
        <translation>Ein freier Port</translation>
    </message>
    <message>
        <source>HTTPS ce&amp;rtificate:</source>
        <translation>HTTPS-&amp;Zertifikat:</translation>
    </message>
    <message>
        <source>HTTPS Certificate (PEM)</source>
        <translation>HTTPS-Zertifikat (PEM)</translation>
    </message>
    <message>
        <source>HTTPS private &amp;key:</source>
        <translation>&amp;Privater HTTPS-Schlüssel:</translation>
    </message>
    <message>
        <source>HTTPS Private Key (PEM)</source>
        <translation>Privater HTTPS-Schlüssel (PEM)</translation>
    </message>
    <message>
        <source>HTTPS p&amp;ort:</source>
        <translation>HTTPS-Po&amp;rt:</translation>
    </message>
    <message>
        <source>HTTPS needs both a certificate file and a private key file; leave both empty for plain HTTP.</source>
        <translation>HTTPS braucht eine Zertifikatsdatei und eine Datei mit dem privaten Schlüssel; lassen Sie beide leer für unverschlüsseltes HTTP.</translation>
    </message>
    <message>
        <source>“%1” is not a file Berth can read.</source>
        <translation>„%1“ ist keine Datei, die Berth lesen kann.</translation>
    </message>
    <message>
        <source>&amp;Write an access log</source>
        <translation>Zugriffsprotoko&amp;ll schreiben</translation>
    </message>
    <message>
        <source>One line per request in Apache&apos;s vhost_combined format, which log analysers such as GoAccess read; a new file each day, 14 days kept</source>
        <translation>Eine Zeile je Anfrage im Format vhost_combined von Apache, das Auswertungsprogramme wie GoAccess lesen; jeden Tag eine neue Datei, 14 Tage aufbewahrt</translation>
    </message>
    <message>
        <source>Access log file</source>
        <translation>Datei des Zugriffsprotokolls</translation>
    </message>
    <message>
        <source>logs/access.log in the data folder</source>
        <translation>logs/access.log im Datenordner</translation>
    </message>
    <message>
        <source>Access log fil&amp;e:</source>
        <translation>Protokolldate&amp;i:</translation>
    </message>
    <message>
        <source>&amp;Server</source>
        <translation>&amp;Server</translation>
    </message>
    <message>
        <source>&amp;General</source>
        <translation>&amp;Allgemein</translation>
    </message>
    <message>
        <source>&amp;Certificates</source>
        <translation>&amp;Zertifikate</translation>
    </message>
</context>
<context>
    <name>berth::ShareLinksDialog</name>
    <message>
        <source>Open</source>
        <translation>Offen</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>Abgelaufen</translation>
    </message>
    <message>
        <source>Used up</source>
        <translation>Aufgebraucht</translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <source>Create &amp;Link</source>
        <translation>&amp;Link erstellen</translation>
    </message>
    <message>
        <source>&amp;Revoke</source>
        <translation>&amp;Widerrufen</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Share links of %1</source>
        <translation>Freigabelinks von %1</translation>
    </message>
    <message>
        <source>Each link opens this private site for whoever has it. Revoking one shuts out only the visitors who came in through it.</source>
        <translation>Jeder Link öffnet diese private Website für alle, die ihn haben. Wer über einen widerrufenen Link kam, hat keinen Zugang mehr; alle anderen behalten ihn.</translation>
    </message>
    <message>
        <source>This site is public: anyone with its address can visit. Links matter once it is private (Access…).</source>
        <translation>Diese Website ist öffentlich: Alle mit ihrer Adresse können sie besuchen. Links wirken erst, wenn sie privat ist (Zugriff …).</translation>
    </message>
    <message>
        <source>Share links</source>
        <translation>Freigabelinks</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Opens</source>
        <translation>Aufrufe</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>Last opened</source>
        <translation>Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>e.g. Client review</source>
        <translation>z. B. Abnahme durch Kunden</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <source>In 1 day</source>
        <translation>In 1 Tag</translation>
    </message>
    <message>
        <source>In 7 days</source>
        <translation>In 7 Tagen</translation>
    </message>
    <message>
        <source>In 30 days</source>
        <translation>In 30 Tagen</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Unbegrenzt</translation>
    </message>
    <message>
        <source>&amp;Label:</source>
        <translation>&amp;Bezeichnung:</translation>
    </message>
    <message>
        <source>&amp;Expires:</source>
        <translation>&amp;Läuft ab:</translation>
    </message>
    <message>
        <source>&amp;Max opens:</source>
        <translation>&amp;Höchstens Aufrufe:</translation>
    </message>
    <message>
        <source>New link</source>
        <translation>Neuer Link</translation>
    </message>
    <message>
        <source>New share link</source>
        <translation>Neuer Freigabelink</translation>
    </message>
    <message>
        <source>Copy new share link</source>
        <translation>Neuen Freigabelink kopieren</translation>
    </message>
    <message>
        <source>QR code of the new share link</source>
        <translation>QR-Code des neuen Freigabelinks</translation>
    </message>
    <message>
        <source>(no label)</source>
        <translation>(ohne Bezeichnung)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Copy the new link now: it is shown only once.</source>
        <translation>Kopieren Sie den neuen Link jetzt: Er wird nur einmal angezeigt.</translation>
    </message>
    <message>
        <source>Revoke share link</source>
        <translation>Freigabelink widerrufen</translation>
    </message>
    <message>
        <source>Revoke “%1”? Whoever opened the site through it can no longer visit.</source>
        <translation>„%1“ widerrufen? Wer die Website darüber geöffnet hat, kann sie nicht mehr besuchen.</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <source>“%1” is revoked.</source>
        <translation>„%1“ ist widerrufen.</translation>
    </message>
</context>
<context>
    <name>berth::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Kürzel</translation>
    </message>
</context>
<context>
    <name>berth::SignInPanel</name>
    <message>
        <source>&amp;Copy Code</source>
        <translation>Code &amp;kopieren</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>Ent&amp;fernen</translation>
    </message>
    <message>
        <source>Anyone may &amp;sign up</source>
        <translation>Jeder darf sich &amp;registrieren</translation>
    </message>
    <message>
        <source>Allow &amp;agent sessions from the local network</source>
        <translation>Agent-Sitzungen aus dem &amp;lokalen Netz erlauben</translation>
    </message>
    <message>
        <source>A&amp;dd</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>Who may sign in</source>
        <translation>Wer sich anmelden darf</translation>
    </message>
    <message>
        <source>Otherwise only the emails below. Whoever signs up while this is on joins the list, and stays on it when you turn it off.</source>
        <translation>Sonst nur die E-Mail-Adressen unten. Wer sich registriert, solange dies an ist, kommt auf die Liste und bleibt darauf, wenn Sie es ausschalten.</translation>
    </message>
    <message>
        <source>Emails that may sign in</source>
        <translation>E-Mail-Adressen, die sich anmelden dürfen</translation>
    </message>
    <message>
        <source>Email</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>Hinzugefügt</translation>
    </message>
    <message>
        <source>Takes the email off the list; keys its owner already has keep working</source>
        <translation>Nimmt die Adresse von der Liste; Schlüssel, die ihr Inhaber schon hat, funktionieren weiter</translation>
    </message>
    <message>
        <source>Email to allow</source>
        <translation>Zu erlaubende E-Mail-Adresse</translation>
    </message>
    <message>
        <source>name@example.com</source>
        <translation>name@example.com</translation>
    </message>
    <message>
        <source>Sign-in requests</source>
        <translation>Anmeldeanfragen</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>Copies the selected request&apos;s code, to pass on to its person</source>
        <translation>Kopiert den Code der ausgewählten Anfrage, um ihn an die Person weiterzugeben</translation>
    </message>
    <message>
        <source>Scripts and agents on this computer get a key with POST /auth/session; from elsewhere they are refused.</source>
        <translation>Skripte und Agenten auf diesem Computer erhalten mit POST /auth/session einen Schlüssel; von anderswo werden sie abgewiesen.</translation>
    </message>
    <message>
        <source>Scripts and agents on this computer and on private networks (10/8, 172.16/12, 192.168/16, link-local) get a key with POST /auth/session.</source>
        <translation>Skripte und Agenten auf diesem Computer und in privaten Netzen (10/8, 172.16/12, 192.168/16, link-local) erhalten mit POST /auth/session einen Schlüssel.</translation>
    </message>
    <message>
        <source>Agent sessions are open to any address (berthd agents anywhere). Turn this off to allow this computer only.</source>
        <translation>Agent-Sitzungen stehen jeder Adresse offen (berthd agents anywhere). Schalten Sie dies aus, um nur diesen Computer zuzulassen.</translation>
    </message>
    <message>
        <source>Codes are mailed through %1. A code shows here when its mail could not be delivered.</source>
        <translation>Codes werden über %1 verschickt. Ein Code erscheint hier, wenn seine E-Mail nicht zugestellt werden konnte.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Mail is not set up:&lt;/b&gt; Berth does not send codes. Give each person the code of their request, e.g. by phone or chat; it works for ten minutes.</source>
        <translation>&lt;b&gt;E-Mail ist nicht eingerichtet:&lt;/b&gt; Berth verschickt keine Codes. Geben Sie jeder Person den Code ihrer Anfrage, etwa per Telefon oder Chat; er gilt zehn Minuten.</translation>
    </message>
    <message>
        <source>Pass it on</source>
        <translation>Weitergeben</translation>
    </message>
    <message>
        <source>Mailing…</source>
        <translation>Wird verschickt …</translation>
    </message>
    <message>
        <source>Mailed</source>
        <translation>Verschickt</translation>
    </message>
    <message>
        <source>Not delivered: pass it on</source>
        <translation>Nicht zugestellt: weitergeben</translation>
    </message>
    <message>
        <source>Not allowed to sign in</source>
        <translation>Darf sich nicht anmelden</translation>
    </message>
    <message>
        <source>Requested %1</source>
        <translation>Angefragt %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>“%1” is not an email address such as name@example.com.</source>
        <translation>„%1“ ist keine E-Mail-Adresse wie name@example.com.</translation>
    </message>
    <message>
        <source>%1 may sign in now.</source>
        <translation>%1 darf sich jetzt anmelden.</translation>
    </message>
    <message>
        <source>%1 may no longer sign in. Keys they already have keep working until you revoke them (Users).</source>
        <translation>%1 darf sich nicht mehr anmelden. Schlüssel, die es schon gibt, funktionieren weiter, bis Sie sie widerrufen (Benutzer).</translation>
    </message>
    <message>
        <source>Copied the code for %1.</source>
        <translation>Code für %1 kopiert.</translation>
    </message>
</context>
<context>
    <name>berth::SlugEdit</name>
    <message>
        <source>Slug</source>
        <translation>Kürzel</translation>
    </message>
    <message>
        <source>my-site</source>
        <translation>meine-website</translation>
    </message>
    <message>
        <source>Slug check</source>
        <translation>Prüfung des Kürzels</translation>
    </message>
    <message>
        <source>Use 3 to 63 characters: a–z and 0–9 in groups joined by single hyphens, with at least one hyphen (e.g. my-site).</source>
        <translation>Verwenden Sie 3 bis 63 Zeichen: a–z und 0–9 in Gruppen, die durch einzelne Bindestriche verbunden sind, mit mindestens einem Bindestrich (z. B. meine-website).</translation>
    </message>
    <message>
        <source>“%1” is already taken by another site. Choose another slug.</source>
        <translation>„%1“ ist bereits von einer anderen Website belegt. Wählen Sie ein anderes Kürzel.</translation>
    </message>
    <message>
        <source>The address will be %1</source>
        <translation>Die Adresse lautet dann %1</translation>
    </message>
</context>
<context>
    <name>berth::Startup</name>
    <message>
        <source>The data folder %1 is in use by %2 (process %3). One data folder serves from one program at a time: stop the other one, or choose another data folder.</source>
        <translation>Der Datenordner %1 wird von %2 (Prozess %3) verwendet. Ein Datenordner dient immer nur einem Programm: Beenden Sie das andere oder wählen Sie einen anderen Datenordner.</translation>
    </message>
    <message>
        <source>Berth cannot use the data folder %1: %2</source>
        <translation>Berth kann den Datenordner %1 nicht verwenden: %2</translation>
    </message>
    <message>
        <source>Berth cannot listen on %1: %2</source>
        <translation>Berth kann nicht auf %1 lauschen: %2</translation>
    </message>
    <message>
        <source>Berth Cannot Start</source>
        <translation>Berth kann nicht starten</translation>
    </message>
    <message>
        <source>Use Another &amp;Port…</source>
        <translation>Anderen &amp;Port verwenden …</translation>
    </message>
    <message>
        <source>Choose &amp;Data Folder…</source>
        <translation>&amp;Datenordner wählen …</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <source>&amp;Try Again</source>
        <translation>&amp;Erneut versuchen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Use Another Port</source>
        <translation>Anderen Port verwenden</translation>
    </message>
    <message>
        <source>Port for Berth to listen on (0 picks a free one):</source>
        <translation>Port, auf dem Berth lauscht (0 wählt einen freien):</translation>
    </message>
    <message>
        <source>Choose Data Folder</source>
        <translation>Datenordner wählen</translation>
    </message>
    <message>
        <source>Berth cannot use the database given by --database or BERTH_DATABASE: %1</source>
        <translation>Berth kann die mit --database oder BERTH_DATABASE angegebene Datenbank nicht verwenden: %1</translation>
    </message>
    <message>
        <source>Berth cannot use the database %1: %2</source>
        <translation>Berth kann die Datenbank %1 nicht verwenden: %2</translation>
    </message>
</context>
<context>
    <name>berth::SubmissionAlerts</name>
    <message>
        <source>New form submission</source>
        <translation>Neue Formulareinsendung</translation>
    </message>
    <message>
        <source>Someone sent a form on %1.</source>
        <translation>Jemand hat ein Formular auf %1 abgeschickt.</translation>
    </message>
    <message>
        <source>New form submissions</source>
        <translation>Neue Formulareinsendungen</translation>
    </message>
    <message numerus="yes">
        <source>%n more form submission(s) on %1.</source>
        <translation>
            <numerusform>%n weitere Formulareinsendung auf %1.</numerusform>
            <numerusform>%n weitere Formulareinsendungen auf %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>berth::SubmissionsDialog</name>
    <message>
        <source>Submissions and counters</source>
        <translation>Einsendungen und Zähler</translation>
    </message>
    <message>
        <source>Submissions or counters</source>
        <translation>Einsendungen oder Zähler</translation>
    </message>
    <message>
        <source>%1 – Submissions and Counters</source>
        <translation>%1 – Einsendungen und Zähler</translation>
    </message>
    <message>
        <source>&amp;Submissions (%1)</source>
        <translation>&amp;Einsendungen (%1)</translation>
    </message>
    <message>
        <source>&amp;Counters (%1)</source>
        <translation>&amp;Zähler (%1)</translation>
    </message>
</context>
<context>
    <name>berth::SubmissionsModel</name>
    <message>
        <source>Received</source>
        <translation>Eingegangen</translation>
    </message>
</context>
<context>
    <name>berth::SubmissionsPanel</name>
    <message>
        <source>&amp;Newer</source>
        <translation>&amp;Neuere</translation>
    </message>
    <message>
        <source>&amp;Older</source>
        <translation>Ä&amp;ltere</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen …</translation>
    </message>
    <message>
        <source>&amp;Export CSV…</source>
        <translation>Als CSV &amp;exportieren …</translation>
    </message>
    <message>
        <source>Newer submissions (previous page)</source>
        <translation>Neuere Einsendungen (vorige Seite)</translation>
    </message>
    <message>
        <source>Older submissions (next page)</source>
        <translation>Ältere Einsendungen (nächste Seite)</translation>
    </message>
    <message>
        <source>Save every submission of this site as a CSV file</source>
        <translation>Alle Einsendungen dieser Website als CSV-Datei speichern</translation>
    </message>
    <message>
        <source>Submissions</source>
        <translation>Einsendungen</translation>
    </message>
    <message>
        <source>Selected submission</source>
        <translation>Ausgewählte Einsendung</translation>
    </message>
    <message>
        <source>Select a submission to read it in full.</source>
        <translation>Wählen Sie eine Einsendung aus, um sie vollständig zu lesen.</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No submissions yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;A form on this site sends here when it posts to &lt;code&gt;/_submit&lt;/code&gt;:&lt;br&gt;&lt;code&gt;&amp;lt;form method=&quot;post&quot; action=&quot;/_submit&quot;&amp;gt;&lt;/code&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Noch keine Einsendungen.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Ein Formular dieser Website landet hier, wenn es an &lt;code&gt;/_submit&lt;/code&gt; sendet:&lt;br&gt;&lt;code&gt;&amp;lt;form method=&quot;post&quot; action=&quot;/_submit&quot;&amp;gt;&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>No submissions yet</source>
        <translation>Noch keine Einsendungen</translation>
    </message>
    <message>
        <source>No submissions</source>
        <translation>Keine Einsendungen</translation>
    </message>
    <message>
        <source>%1–%2 of %3</source>
        <translation>%1–%2 von %3</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>Eingegangen</translation>
    </message>
    <message>
        <source>Delete Submissions</source>
        <translation>Einsendungen löschen</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n submission(s) of %1? This cannot be undone.</source>
        <translation>
            <numerusform>%n Einsendung von %1 löschen? Das kann nicht rückgängig gemacht werden.</numerusform>
            <numerusform>%n Einsendungen von %1 löschen? Das kann nicht rückgängig gemacht werden.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n submission(s).</source>
        <translation>
            <numerusform>%n Einsendung gelöscht.</numerusform>
            <numerusform>%n Einsendungen gelöscht.</numerusform>
        </translation>
    </message>
    <message>
        <source>Export Submissions</source>
        <translation>Einsendungen exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV-Dateien (*.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n submission(s) to %1.</source>
        <translation>
            <numerusform>%n Einsendung nach %1 exportiert.</numerusform>
            <numerusform>%n Einsendungen nach %1 exportiert.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>berth::TimeText</name>
    <message>
        <source>in a few seconds</source>
        <translation>in wenigen Sekunden</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>gerade eben</translation>
    </message>
    <message numerus="yes">
        <source>in %n minute(s)</source>
        <translation>
            <numerusform>in %n Minute</numerusform>
            <numerusform>in %n Minuten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s) ago</source>
        <translation>
            <numerusform>vor %n Minute</numerusform>
            <numerusform>vor %n Minuten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>in %n hour(s)</source>
        <translation>
            <numerusform>in %n Stunde</numerusform>
            <numerusform>in %n Stunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s) ago</source>
        <translation>
            <numerusform>vor %n Stunde</numerusform>
            <numerusform>vor %n Stunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>in %n day(s)</source>
        <translation>
            <numerusform>in %n Tag</numerusform>
            <numerusform>in %n Tagen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s) ago</source>
        <translation>
            <numerusform>vor %n Tag</numerusform>
            <numerusform>vor %n Tagen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>berth::TrafficChart</name>
    <message>
        <source>Views and visitors per day</source>
        <translation>Aufrufe und Besucher pro Tag</translation>
    </message>
    <message>
        <source>Views</source>
        <translation>Aufrufe</translation>
    </message>
    <message>
        <source>Visitors</source>
        <translation>Besucher</translation>
    </message>
</context>
<context>
    <name>berth::TrafficDialog</name>
    <message>
        <source>Top pages</source>
        <translation>Meistbesuchte Seiten</translation>
    </message>
    <message>
        <source>Page</source>
        <translation>Seite</translation>
    </message>
    <message>
        <source>Views</source>
        <translation>Aufrufe</translation>
    </message>
    <message>
        <source>Referrers</source>
        <translation>Verweise</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>Nicht gefunden</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Hits</source>
        <translation>Abrufe</translation>
    </message>
    <message>
        <source>%1 – Traffic</source>
        <translation>%1 – Zugriffsstatistik</translation>
    </message>
    <message numerus="yes">
        <source>Last %n day(s)</source>
        <translation>
            <numerusform>Letzter Tag</numerusform>
            <numerusform>Letzte %n Tage</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation>&amp;Zeitraum:</translation>
    </message>
    <message>
        <source>Visitors</source>
        <translation>Besucher</translation>
    </message>
    <message>
        <source>Not found (404)</source>
        <translation>Nicht gefunden (404)</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gesendet</translation>
    </message>
    <message>
        <source>Top pages, referrers and missing paths</source>
        <translation>Meistbesuchte Seiten, Verweise und fehlende Pfade</translation>
    </message>
    <message>
        <source>P&amp;ages</source>
        <translation>&amp;Seiten</translation>
    </message>
    <message>
        <source>&amp;Referrers</source>
        <translation>&amp;Verweise</translation>
    </message>
    <message>
        <source>&amp;Not Found</source>
        <translation>&amp;Nicht gefunden</translation>
    </message>
</context>
<context>
    <name>berth::TrayController</name>
    <message>
        <source>&amp;Show Berth</source>
        <translation>Berth &amp;anzeigen</translation>
    </message>
    <message>
        <source>&amp;Quit Berth</source>
        <translation>Berth &amp;beenden</translation>
    </message>
    <message>
        <source>Berth is serving your sites</source>
        <translation>Berth liefert Ihre Websites aus</translation>
    </message>
</context>
<context>
    <name>berth::UsersPanel</name>
    <message>
        <source>&amp;Revoke Key…</source>
        <translation>Schlüssel &amp;widerrufen …</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Tarif</translation>
    </message>
    <message>
        <source>Deployments</source>
        <translation>Websites</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Last active</source>
        <translation>Zuletzt aktiv</translation>
    </message>
    <message>
        <source>Keys of the selected user</source>
        <translation>Schlüssel des ausgewählten Benutzers</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>Zuletzt benutzt</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>The key stops working at once: requests with it are refused</source>
        <translation>Der Schlüssel funktioniert sofort nicht mehr: Anfragen damit werden abgewiesen</translation>
    </message>
    <message>
        <source>Plan of the selected user</source>
        <translation>Tarif des ausgewählten Benutzers</translation>
    </message>
    <message>
        <source>&amp;Plan:</source>
        <translation>&amp;Tarif:</translation>
    </message>
    <message>
        <source>A new plan applies at once; deployments a user already has above its limit stay.</source>
        <translation>Ein neuer Tarif gilt sofort; Websites über seinem Limit, die ein Benutzer schon hat, bleiben erhalten.</translation>
    </message>
    <message>
        <source>You (owner)</source>
        <translation>Sie (Eigentümer)</translation>
    </message>
    <message>
        <source>%1 (owner)</source>
        <translation>%1 (Eigentümer)</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>%1 deployments of the %2 the plan allows</source>
        <translation>%1 Websites von %2, die der Tarif erlaubt</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <source>Keys of %1</source>
        <translation>Schlüssel von %1</translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation>Widerrufen am %1</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>Abgelaufen</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>%1 is on %2 now: up to %3 deployments.</source>
        <translation>%1 hat jetzt den Tarif %2: bis zu %3 Websites.</translation>
    </message>
    <message>
        <source>Revoke Key</source>
        <translation>Schlüssel widerrufen</translation>
    </message>
    <message>
        <source>Revoke the key “%1” of %2? Requests with it are refused from now on. This cannot be undone.</source>
        <translation>Den Schlüssel „%1“ von %2 widerrufen? Anfragen damit werden ab sofort abgewiesen. Das kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>The key “%1” is revoked.</source>
        <translation>Der Schlüssel „%1“ ist widerrufen.</translation>
    </message>
    <message>
        <source>&amp;Revoke</source>
        <translation>&amp;Widerrufen</translation>
    </message>
</context>
<context>
    <name>berth::WebhookAlerts</name>
    <message>
        <source>A webhook was turned off</source>
        <translation>Ein Webhook wurde ausgeschaltet</translation>
    </message>
    <message>
        <source>%1 failed every delivery for 3 days. Its site&apos;s Notifications… turns it back on.</source>
        <translation>%1 hat 3 Tage lang jede Zustellung verfehlt. „Benachrichtigungen …“ seiner Website schaltet ihn wieder ein.</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>The Berth dashboard: publish folders as live sites. Options override the saved settings for this run.</source>
        <translation>Das Berth-Dashboard: Ordner als erreichbare Websites veröffentlichen. Optionen haben für diesen Start Vorrang vor den gespeicherten Einstellungen.</translation>
    </message>
    <message>
        <source>Address and port to listen on.</source>
        <translation>Adresse und Port, unter denen Berth erreichbar ist.</translation>
    </message>
    <message>
        <source>Where the data lives.</source>
        <translation>Wo die Daten liegen.</translation>
    </message>
    <message>
        <source>Domain whose subdomains are the sites.</source>
        <translation>Domain, deren Subdomains die Websites sind.</translation>
    </message>
    <message>
        <source>Public base URL of the API.</source>
        <translation>Öffentliche Basis-URL der API.</translation>
    </message>
    <message>
        <source>Keep the records and the sites&apos; files in this PostgreSQL database, postgresql://USER:PASSWORD@HOST:PORT/DBNAME (default: $BERTH_DATABASE, else SQLite in the data folder).</source>
        <translation>Datensätze und Dateien der Sites in dieser PostgreSQL-Datenbank halten, postgresql://BENUTZER:PASSWORT@HOST:PORT/DBNAME (Vorgabe: $BERTH_DATABASE, sonst SQLite im Datenordner).</translation>
    </message>
</context>
</TS>
